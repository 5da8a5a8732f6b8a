import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { UUID_PATTERN } from '../../platform/ids.ts';
import type { Recipient } from './recipients.ts';
import { normalisePhone, invalidNumberMessage } from '../../common/phone.ts';
import { findMessage, findMessageIdByIdempotencyKey, findOptedOut } from './messages.repo.ts';
import { toMessageView, type MessageView } from './message-view.ts';
import { textEncoding, textSegments } from '../../carrier/carrier.ts';
import { cancelScheduled, messageStatus } from '../scheduling/scheduling.service.ts';
import { listAccountMessages, type MessageListQuery } from './message-list.service.ts';
import { exportAccountMessages, type MessageExportQuery } from './message-export.service.ts';
import type { LinkService, LinkView } from '../links/links.service.ts';
import {
  createSingleSends, resolveSender, send, sendingNumberFor, singleBody, tracksLinks,
  type BatchInput, type BatchResult, type SendDeps, type SendInput, type SendOptions, type SendResult, type Within,
} from './send.ts';
import { prepareBatch, sendBatch } from './send-batch.ts';
import type { BatchPreview, PreviewRecipient } from './messages.schemas.ts';

export type { Within } from './send.ts';

// Credits are parts (the interface document's rule); the encoding is what the carrier link will use.
const previewOf = (phone: string, text: string, parts: number): PreviewRecipient =>
  ({ phone, text, encoding: textEncoding(text), parts, credits: parts, segments: textSegments(text) });

export interface MessageServiceDeps {
  db: Db;
  optoutLinkBase: string;
  /** The links of a message, for GET /message/{id}. */
  links: Pick<LinkService, 'ofMessage'>;
  sharedSender: { AU: string; NZ: string };
  /** Wakes the dispatcher once new messages are committed. */
  /** After commit, with how many messages were queued. */
  onQueued: (count: number) => void;
  now?: () => Date;
  /** A contact list's recipients with their merge fields; null when the list is not the account's. */
  listRecipients?: (accountId: string, listId: string) => Promise<Recipient[] | null>;
}

const UUID_RE = new RegExp(UUID_PATTERN);

export function createMessageService(deps: MessageServiceDeps) {
  const sendDeps: SendDeps = {
    db: deps.db, optoutLinkBase: deps.optoutLinkBase, sharedSender: deps.sharedSender, onQueued: deps.onQueued,
    now: deps.now ?? (() => new Date()), listRecipients: deps.listRecipients, singles: createSingleSends(deps.db),
  };

  /**
   * By id, or by the Idempotency-Key the account used on `/send` (a value that is not a message id of this
   * account is looked up as a key; UUIDs too, since clients often use UUIDs as keys). Unknown is 404, never 400.
   */
  async function get(actor: Actor, idOrKey: string): Promise<MessageView & { links: LinkView[] }> {
    let row = UUID_RE.test(idOrKey) ? await findMessage(deps.db, actor.accountId, idOrKey) : null;
    if (!row) {
      const id = await findMessageIdByIdempotencyKey(deps.db, actor.accountId, idOrKey);
      row = id ? await findMessage(deps.db, actor.accountId, id) : null;
    }
    if (!row) throw notFound('Message');
    return toMessageView(row, await deps.links.ofMessage(actor.accountId, row.id));
  }

  /** POST /send/preview: what /send would send and charge, without writing anything. */
  async function previewSend(actor: Actor, input: SendInput): Promise<PreviewRecipient & { opted_out: boolean }> {
    const phone = normalisePhone(input.to, actor.account.settings.country);
    if (!phone.ok) throw new AppError('invalid_number', invalidNumberMessage(input.to, phone.reason));
    await resolveSender(sendDeps, actor, input.sender ?? input.from);
    const { body, parts } = singleBody(sendDeps, input.message, await sendingNumberFor(sendDeps, actor, input, phone.country), tracksLinks(actor, input.link_tracking));
    const optedOut = !actor.account.optoutExempt && (await findOptedOut(deps.db, actor.accountId, [phone.e164])).size > 0;
    return { ...previewOf(phone.e164, body, parts), opted_out: optedOut };
  }

  /** POST /send-batch/preview: the batch as /send-batch would queue it, without writing or charging. */
  async function previewBatch(actor: Actor, input: BatchInput): Promise<BatchPreview> {
    const { items, invalid, optedOutCount, duplicates, missing } = await prepareBatch(sendDeps, actor, input);
    const recipients = items.map((i) => previewOf(i.recipient, i.body, i.parts));
    return {
      recipients,
      total_credits: items.reduce((sum, i) => sum + i.parts, 0),
      total_segments: recipients.reduce((sum, r) => sum + r.segments, 0),
      invalid_numbers: invalid.map((i) => i.number), invalid_details: invalid, opted_out_count: optedOutCount, duplicates_removed: duplicates,
      missing_merge_fields: missing,
    };
  }

  /** DELETE /message/{id}: cancels a scheduled message and refunds it; 409 once it is queued or later. */
  async function cancel(actor: Actor, id: string) {
    const { cancelled, creditsAfter } = await cancelScheduled(deps.db, actor.accountId, { messageId: id }, 'cancelled');
    if (cancelled.length === 0) {
      const status = await messageStatus(deps.db, actor.accountId, id);
      if (status === null) throw notFound('Message');
      throw new AppError('not_scheduled', `The message is ${status}; only a scheduled message can be cancelled`);
    }
    return { ok: true as const, status: 'cancelled' as const, credits_refunded: cancelled[0]!.credits, credits_remaining: creditsAfter! };
  }

  const list = (actor: Actor, query: MessageListQuery) => listAccountMessages(deps.db, actor, query);
  const exportCsv = (actor: Actor, query: MessageExportQuery) => exportAccountMessages(deps.db, actor, query);

  return {
    send: (actor: Actor, input: SendInput, within?: Within<SendResult>, options?: SendOptions) => send(sendDeps, actor, input, within, options),
    sendBatch: (actor: Actor, input: BatchInput, within?: Within<BatchResult>) => sendBatch(sendDeps, actor, input, within),
    get, list, exportCsv, previewSend, previewBatch, cancel,
  };
}

export type MessageService = ReturnType<typeof createMessageService>;

// A campaign's page of messages, and the row shape receipts act on.
export { listCampaignMessages, type MessageRow } from './messages.repo.ts';
