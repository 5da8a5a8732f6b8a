import { sql } from 'drizzle-orm';
import { DEFAULT_CARRIER } from '../../carrier/carrier.ts';
import { rows, type Executor } from '../../platform/db/client.ts';

/**
 * Sent messages still waiting for their final receipt, by carrier and bind: the operator's view of receipts that
 * are late or never coming. Service-wide (every account), read on the partial index of sent messages.
 */
export async function receiptsWaiting(db: Executor): Promise<Array<{ carrier: string; bind: number | null; waiting: number }>> {
  const found = await rows<{ carrier: string; bind: number | null; waiting: string }>(db, sql`
    select coalesce(smsc_carrier, ${DEFAULT_CARRIER}) as carrier, smsc_bind as bind, count(*) as waiting
    from messages where status = 'sent'
    group by 1, 2`);
  return found.map((r) => ({ carrier: r.carrier, bind: r.bind, waiting: Number(r.waiting) }));
}

/** sentAt: PostgreSQL's own text of the timestamp (microseconds kept, so the keyset neither skips nor repeats). */
export interface Unreceipted { messageId: string; sentAt: string; from: string; smscId: string }

/**
 * One page (keyset on sent_at, id) of a carrier's sent messages still without a final receipt, submitted between
 * `from` and `to`: each with the SMSC ids still owed a receipt (a concatenated message's segments without one,
 * else the message's own id). Read on the partial index of sent messages.
 */
export async function unreceipted(db: Executor, p: { carrier: string; from: Date; to: Date; after: { sentAt: string; id: string } | null; limit: number }): Promise<Unreceipted[]> {
  const after = p.after ? sql`and (m.sent_at, m.id) > (${p.after.sentAt}::timestamptz, ${p.after.id}::uuid)` : sql``;
  const found = await rows<{ id: string; sent_key: string; sender: string; smsc_id: string }>(db, sql`
    with page as (
      select m.id, m.sent_at, m.sender, m.smsc_message_id from messages m
      where m.status = 'sent' and coalesce(m.smsc_carrier, ${DEFAULT_CARRIER}) = ${p.carrier} and m.smsc_message_id is not null
        and m.sent_at > ${p.from.toISOString()}::timestamptz and m.sent_at <= ${p.to.toISOString()}::timestamptz ${after}
      order by m.sent_at, m.id
      limit ${p.limit})
    select page.id, page.sent_at::text as sent_key, page.sender, coalesce(s.smsc_message_id, page.smsc_message_id) as smsc_id
    from page left join message_segments s on s.message_id = page.id and s.carrier = ${p.carrier} and s.dlr_status is null
    order by page.sent_at, page.id`);
  return found.map((r) => ({
    messageId: r.id, sentAt: r.sent_key, from: r.sender, smscId: r.smsc_id,
  }));
}
