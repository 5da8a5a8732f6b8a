import type { MessageRow } from './messages.repo.ts';

export interface MessageView {
  message: {
    id: string;
    recipient: string;
    sender: string;
    body: string | null;
    status: string;
    parts: number;
    campaign_id: string | null;
    created_at: string;
    sent_at: string | null;
  };
  delivery_receipt: { status: string; received_at: string; error_code: string | null } | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The public form of a message: the GET /message/{id} body and, byte for byte, the message.dlr webhook body.
 * One function for both, so the two can never drift apart.
 */
export function toMessageView(row: MessageRow): MessageView {
  return {
    message: {
      id: row.id,
      recipient: row.recipient,
      sender: row.sender,
      body: row.body,
      status: row.status,
      parts: row.parts,
      campaign_id: row.campaignId,
      created_at: row.createdAt.toISOString(),
      sent_at: iso(row.sentAt),
    },
    delivery_receipt: row.dlrStatus && row.dlrReceivedAt
      ? { status: row.dlrStatus, received_at: row.dlrReceivedAt.toISOString(), error_code: row.dlrErrorCode }
      : null,
  };
}
