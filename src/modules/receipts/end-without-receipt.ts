import { and, eq, isNull, sql } from 'drizzle-orm';
import type { LinksOf } from '../../common/link-view.ts';
import type { Executor } from '../../platform/db/client.ts';
import { messages } from '../../platform/db/schema/index.ts';
import { toMessageView } from '../messages/message-view.ts';
import { recordEvent } from '../webhooks/outbox.ts';

/** How a message ends when no receipt will ever come from the SMSC. */
export type EndedWithoutReceipt = 'rejected' | 'expired';

/**
 * Every message ends with a webhook. A message the SMSC refused at submit (`rejected`), or
 * one whose validity ran out with no receipt (`expired`), gets the delivery_receipt a final receipt would have
 * set — `{status, received_at: now, error_code}`, message status `failed` — and its `message.dlr` event, in the
 * caller's transaction (transactional outbox), so a client that waits for webhooks never waits forever.
 *
 * Call it inside the transaction that gives up on the message (and refunds it, for a rejection). Idempotent:
 * a message that already has a delivery_receipt is left alone (returns null). Returns whether an event was
 * recorded; after the commit, raise `services.signals.webhooks` when it was, to wake the webhook worker.
 */
export async function endWithoutReceipt(
  tx: Executor, input: { messageId: string; status: EndedWithoutReceipt; errorCode: string | null }, linksOf: LinksOf,
): Promise<{ eventRecorded: boolean } | null> {
  const [row] = await tx.update(messages)
    .set({ status: 'failed', dlrStatus: input.status, dlrErrorCode: input.errorCode, dlrReceivedAt: sql`now()` })
    .where(and(eq(messages.id, input.messageId), isNull(messages.dlrStatus)))
    .returning();
  if (!row) return null;
  const links = await linksOf(tx, [row]);
  const id = await recordEvent(tx, { accountId: row.accountId, event: 'message.dlr', messageId: row.id, body: toMessageView(row, links.get(row.id) ?? []) });
  return { eventRecorded: id !== null };
}
