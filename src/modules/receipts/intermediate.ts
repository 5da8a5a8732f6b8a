import { DEFAULT_CARRIER, type Receipt, type ReceiptAnswer } from '../../carrier/carrier.ts';
import type { Db } from '../../platform/db/client.ts';
import type { LinksOf } from '../../common/link-view.ts';
import { toMessageView } from '../messages/message-view.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { receiptErrorCode } from './receipt-outcome.ts';
import { findHolder } from './receipts.repo.ts';
import { setIntermediate } from './intermediate.repo.ts';
import { sentWritten, type ReceiptPipeline } from './receipt-pipeline.ts';

export interface IntermediateDeps {
  db: Db;
  linksOf: LinksOf;
  now: () => Date;
  /** The pending `sent` writes it waits for (sentWritten), and the webhook worker's wake. */
  pipeline: Pick<ReceiptPipeline, 'unrecorded' | 'afterSentWrite' | 'events'>;
}

/**
 * Non-final receipts (ENROUTE, or an intermediate notification, esm_class 0x20): the message keeps its status and
 * shows the receipt as `intermediate_receipt`; its message.dlr event goes only to endpoints whose `events` ask for
 * `message.dlr.intermediate`, recorded in the same transaction (transactional outbox). Kept apart from the final
 * path on purpose: nothing here parks, batches or ends a message. One that arrives before its message holds the id
 * (after this process's `sent` write, which it waits for) is acknowledged and not kept: the final receipt decides.
 */
export async function onIntermediate(deps: IntermediateDeps, receipt: Receipt): Promise<ReceiptAnswer> {
  const carrier = receipt.carrier ?? DEFAULT_CARRIER;
  const ids = [receipt.smscMessageId, ...(receipt.otherIds ?? [])];
  await Promise.all(ids.map((smscId) => sentWritten(deps.pipeline, { carrier, smscId })));
  const record = {
    status: 'enroute' as const, detail: receipt.detail ?? null, error_code: receiptErrorCode(receipt.errorCode),
    received_at: deps.now().toISOString(),
  };
  let recorded = false;
  const matched = await deps.db.transaction(async (tx) => {
    // Of the id's readings (carrier/smpp/id-forms.ts), the one message awaiting its receipt; none or several: not kept.
    const awaiting: Array<{ id: string; messageId: string }> = [];
    for (const id of ids) {
      const holder = await findHolder(tx, carrier, id);
      if (holder?.awaiting) awaiting.push({ id, messageId: holder.messageId });
    }
    if (awaiting.length !== 1) return null;
    const [{ id, messageId }] = awaiting as [{ id: string; messageId: string }];
    const row = await setIntermediate(tx, messageId, record);
    if (row) {
      const links = await deps.linksOf(tx, [row]);
      recorded = (await recordEvent(tx, {
        accountId: row.accountId, event: 'message.dlr', option: 'message.dlr.intermediate', messageId: row.id,
        body: toMessageView(row, links.get(row.id) ?? []),
      })) !== null;
    }
    return id;
  });
  if (recorded) deps.pipeline.events.onEvents?.();
  return { matched };
}
