import type { LinkView } from '../../common/link-view.ts';
import type { MessageRow } from './messages.repo.ts';
import { failureReason } from './failure-reason.ts';

export interface MessageFields {
  id: string;
  recipient: string;
  sender: string;
  body: string | null;
  status: string;
  parts: number;
  campaign_id: string | null;
  created_at: string;
  sent_at: string | null;
  /** when a scheduled message is (or was) due; null for one sent at once */
  scheduled_at: string | null;
  /** why a failed or cancelled message did not arrive; null otherwise */
  error_code: string | null;
  error_message: string | null;
  /** the customer's own key/value pairs given at send, or null */
  metadata: Record<string, string> | null;
}

export type DeliveryReceiptView = { status: string; received_at: string; error_code: string | null } | null;

/** The latest non-final receipt (ENROUTE, an intermediate notification); kept once the final one has come. */
export type IntermediateReceiptView = { status: 'enroute'; detail: string | null; error_code: string | null; received_at: string } | null;

export interface MessageView {
  message: MessageFields;
  delivery_receipt: DeliveryReceiptView;
  intermediate_receipt: IntermediateReceiptView;
  links: LinkView[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function messageFields(row: MessageRow): MessageFields {
  const reason = failureReason(row);
  return {
    id: row.id,
    recipient: row.recipient,
    sender: row.sender,
    body: row.body,
    status: row.status,
    parts: row.parts,
    campaign_id: row.campaignId,
    created_at: row.createdAt.toISOString(),
    sent_at: iso(row.sentAt),
    scheduled_at: iso(row.scheduledAt),
    error_code: reason?.code ?? null,
    error_message: reason?.message ?? null,
    metadata: row.metadata ?? null,
  };
}

function receiptOf(row: MessageRow): DeliveryReceiptView {
  return row.dlrStatus && row.dlrReceivedAt
    ? { status: row.dlrStatus, received_at: row.dlrReceivedAt.toISOString(), error_code: row.dlrErrorCode }
    : null;
}

/**
 * The public form of a message: the message.dlr webhook body and the GET /message/{id} body, with its links as
 * they stand (for a webhook, when its event is recorded; click counts go on changing after). One function for
 * both, so the two can never drift apart.
 */
export function toMessageView(row: MessageRow, links: LinkView[]): MessageView {
  return { message: messageFields(row), delivery_receipt: receiptOf(row), intermediate_receipt: row.intermediateReceipt ?? null, links };
}

/** One item of GET /messages: the message's fields with the contact's name and its delivery receipt beside them. */
export function toMessageListItem(row: MessageRow & { contactName: string | null }): MessageFields & { contact_name: string | null; delivery_receipt: DeliveryReceiptView } {
  return { ...messageFields(row), contact_name: row.contactName, delivery_receipt: receiptOf(row) };
}
