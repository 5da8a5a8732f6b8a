import { sql } from 'drizzle-orm';
import { rows, type Db, type Executor } from '../../platform/db/client.ts';
import type { LinksOf } from '../../common/link-view.ts';
import { changeCredits } from '../credits/credits.service.ts';
import { endWithoutReceipt } from '../receipts/end-without-receipt.ts';

/** How many messages one transaction of the expiry sweep ends at most. */
const EXPIRY_BATCH = 500;

/**
 * In the send's transaction: the validity period the customer's submit_sm gave the message ends then (the send
 * flags the message, customer_validity, so the dispatcher's claim reads it).
 */
export async function insertValidity(tx: Executor, messageId: string, validUntil: Date): Promise<void> {
  await tx.execute(sql`insert into smpp_validity (message_id, valid_until) values (${messageId}, ${validUntil.toISOString()}::timestamptz)`);
}

/**
 * Ends the messages whose customer's validity has passed by `at`, as `expired` (transactional outbox: each with its
 * message.dlr). One never sent (queued and not held by a dispatcher, or scheduled) ends at once, with
 * error_code `validity_expired`, and is refunded; one sent and still without a receipt `graceMs` later ends as
 * MESSAGE_VALIDITY_HOURS' expiry ends it (`no_receipt`), the carrier's own EXPIRED receipt having had that long.
 * Rows whose message is final and whose time has passed are deleted. Returns the messages ended.
 */
export async function expireByValidity(db: Db, linksOf: LinksOf, at: Date, graceMs: number): Promise<{ ended: number; events: number }> {
  return db.transaction(async (tx) => {
    const unsent = await rows<{ id: string; account_id: string; campaign_id: string | null; credits: number }>(tx, sql`
      select m.id, m.account_id, m.campaign_id, m.credits from smpp_validity v join messages m on m.id = v.message_id
      where v.valid_until <= ${at.toISOString()}::timestamptz and m.status in ('queued', 'scheduled')
        and (m.lease_until is null or m.lease_until < now())
      order by v.valid_until limit ${EXPIRY_BATCH}
      for update of m skip locked`);
    const sent = await rows<{ id: string }>(tx, sql`
      select m.id from smpp_validity v join messages m on m.id = v.message_id
      where v.valid_until <= ${new Date(at.getTime() - graceMs).toISOString()}::timestamptz and m.status = 'sent'
      order by v.valid_until limit ${EXPIRY_BATCH}
      for update of m skip locked`);
    let events = 0;
    if (unsent.length > 0) {
      await tx.execute(sql`
        update messages set status = 'failed', error_code = 'validity_expired', lease_until = null, claim_token = null
        where id = any(${`{${unsent.map((m) => m.id).join(',')}}`}::uuid[])`);
    }
    for (const m of unsent) {
      await changeCredits(tx, { accountId: m.account_id, delta: m.credits, kind: 'refund', messageId: m.id, campaignId: m.campaign_id });
      if ((await endWithoutReceipt(tx, { messageId: m.id, status: 'expired', errorCode: 'validity_expired' }, linksOf))?.eventRecorded) events += 1;
    }
    for (const m of sent) {
      if ((await endWithoutReceipt(tx, { messageId: m.id, status: 'expired', errorCode: 'no_receipt' }, linksOf))?.eventRecorded) events += 1;
    }
    await tx.execute(sql`
      delete from smpp_validity v where v.valid_until <= ${at.toISOString()}::timestamptz
        and not exists (select 1 from messages m where m.id = v.message_id and m.status in ('queued', 'scheduled', 'sent'))`);
    return { ended: unsent.length + sent.length, events };
  });
}
