import { and, eq, sql } from 'drizzle-orm';
import { DEFAULT_CARRIER } from '../../carrier/carrier.ts';
import { preparedRows, rows, type Executor } from '../../platform/db/client.ts';
import { pendingReceipts } from '../../platform/db/schema/index.ts';
import type { FinalState } from './receipt-outcome.ts';
import { handsetKey, handsetKeySql } from './handset.ts';

// Receipts that overtook their submit_sm_resp, parked in pending_receipts until a message carries their id
// (README.md). Every id here is in the carrier's one normalised form (carrier/smpp/id-forms.ts).

// A parked receipt nothing holds this long is counted as unmatched: an early receipt waits only for its `sent` write.
export const ORPHAN_AFTER_MS = 60_000;

export interface ParkedReceipt {
  state: FinalState;
  errorCode: string | null;
}

export interface SmscRef {
  carrier: string;
  smscId: string;
}

/** What a parked row keeps besides the receipt: the handset (stored as its key, handset.ts), and the id's other readings (id-forms.ts). */
export interface ParkedExtra {
  recipient?: string | undefined;
  otherIds?: string[] | undefined;
}

const parkedKey = (ref: SmscRef) => and(eq(pendingReceipts.carrier, ref.carrier), eq(pendingReceipts.smscMessageId, ref.smscId));

/** A PostgreSQL text[] literal, one parameter: the planner then uses the smsc id index (a set-returning function would not). */
export const textArray = (values: string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

export async function parkReceipt(db: Executor, ref: SmscRef, receipt: ParkedReceipt, receivedAt: Date, extra: ParkedExtra = {}): Promise<void> {
  await db.insert(pendingReceipts).values({
    carrier: ref.carrier, smscMessageId: ref.smscId, receipt, receivedAt,
    recipient: extra.recipient ? handsetKey(extra.recipient) : null, otherIds: extra.otherIds?.length ? extra.otherIds : null,
  }).onConflictDoNothing();
}

/** Locks a parked receipt; a concurrent resolver waits, then finds it gone. */
export async function lockParked(tx: Executor, ref: SmscRef): Promise<{ receipt: ParkedReceipt; receivedAt: Date; otherIds: string[]; recipient: string | null } | null> {
  const [row] = await tx.select({
    receipt: pendingReceipts.receipt, receivedAt: pendingReceipts.receivedAt, otherIds: pendingReceipts.otherIds, recipient: pendingReceipts.recipient,
  }).from(pendingReceipts).where(parkedKey(ref)).for('update');
  return row ? { receipt: row.receipt as ParkedReceipt, receivedAt: row.receivedAt, otherIds: row.otherIds ?? [], recipient: row.recipient } : null;
}

export async function deleteParked(tx: Executor, ref: SmscRef): Promise<void> {
  await tx.delete(pendingReceipts).where(parkedKey(ref));
}

/**
 * Parked receipts among these SMSC ids (under any reading), on whichever carrier they came from. The ids go as one
 * array parameter, so the statement's text is the same for any number of them and it runs prepared (the
 * dispatcher looks after every write).
 */
export async function parkedAmong(db: Executor, smscIds: string[]): Promise<SmscRef[]> {
  if (smscIds.length === 0) return [];
  return preparedRows<SmscRef>(db, sql`
    select carrier, smsc_message_id as "smscId" from pending_receipts
    where smsc_message_id = any(${textArray(smscIds)}::text[])
       or (other_ids is not null and other_ids && ${textArray(smscIds)}::text[])`);
}

// A message or segment carries this id on this carrier (the holder findHolder would choose) and can take the
// receipt: it still awaits one, or it is about the same handset (a repeat). A receipt about another handset that
// only a final message holds is for a newer message the SMSC gave a reused id to, whose `sent` write is pending
// (applyReceipt, one-receipt.ts): for that one nothing holds it yet.
const canTake = (awaiting: SQL) => sql`(p.recipient is null or ${awaiting} or ${handsetKeySql(sql`m.recipient`)} = p.recipient)`;
const heldBy = (id: SQL) => sql`(
  exists (select 1 from messages m where m.smsc_message_id = ${id} and coalesce(m.smsc_carrier, ${DEFAULT_CARRIER}) = p.carrier and m.sent_at is not null
    and ${canTake(sql`(m.dlr_status is null and m.status = 'sent')`)})
  or exists (select 1 from message_segments s join messages m on m.id = s.message_id where s.carrier = p.carrier and s.smsc_message_id = ${id}
    and ${canTake(sql`(s.dlr_status is null and m.status = 'sent')`)}))`;
type SQL = ReturnType<typeof sql>;
const hasHolder = sql`(${heldBy(sql`p.smsc_message_id`)} or (p.other_ids is not null and exists (
  select 1 from unnest(p.other_ids) o(id) where ${heldBy(sql`o.id`)})))`;

/**
 * The backstop's look-up: parked receipts some message or segment now holds (a process died between its commit
 * and its look). Found through the holders' id indexes, so receipts nothing holds (orphans) never sit ahead of
 * them, however many there are.
 */
export async function parkedWithHolder(db: Executor, limit: number): Promise<SmscRef[]> {
  return rows<SmscRef>(db, sql`
    select p.carrier, p.smsc_message_id as "smscId" from pending_receipts p
    where ${hasHolder}
    limit ${limit}`);
}

/** Parked receipts nothing holds after `graceMs` (unmatched), by carrier: how many, the oldest's age, one id. */
export async function orphanStats(db: Executor, graceMs: number): Promise<Array<{ carrier: string; count: number; oldestSeconds: number; sampleId: string }>> {
  const found = await rows<{ carrier: string; count: string; oldest: number; sample: string }>(db, sql`
    select p.carrier, count(*) as count, extract(epoch from now() - min(p.received_at))::float8 as oldest,
      (array_agg(p.smsc_message_id order by p.received_at))[1] as sample
    from pending_receipts p
    where p.received_at < now() - make_interval(secs => ${graceMs / 1000}) and not ${hasHolder}
    group by p.carrier`);
  return found.map((r) => ({ carrier: r.carrier, count: Number(r.count), oldestSeconds: Number(r.oldest), sampleId: r.sample }));
}

/** Deletes parked receipts nothing holds, older than `olderThanMs` (PARKED_RECEIPT_MAX_AGE_HOURS). Returns how many. */
export async function purgeOrphans(db: Executor, olderThanMs: number): Promise<number> {
  const gone = await rows<{ carrier: string }>(db, sql`
    delete from pending_receipts p
    where p.received_at < now() - make_interval(secs => ${olderThanMs / 1000}) and not ${hasHolder}
    returning p.carrier`);
  return gone.length;
}

/**
 * Parked receipts that may be the first copy's of these resent messages: nothing holds their id, they came from
 * the carrier the message was just sent through, about its recipient, after it was created and at least
 * `settledMs` ago (a receipt that just arrived more likely belongs to a message whose `sent` write is pending).
 * Locked SKIP LOCKED: one being resolved elsewhere is left to that resolver.
 */
export async function firstCopyCandidates(tx: Executor, messageIds: string[], settledMs: number): Promise<Array<{
  messageId: string; carrier: string; smscId: string; receipt: ParkedReceipt; receivedAt: Date;
}>> {
  if (messageIds.length === 0) return [];
  const found = await rows<{ message_id: string; carrier: string; smsc_id: string; receipt: ParkedReceipt; received_at: string | Date }>(tx, sql`
    select m.id as message_id, p.carrier, p.smsc_message_id as smsc_id, p.receipt, p.received_at
    from messages m
    join pending_receipts p on p.carrier = coalesce(m.smsc_carrier, ${DEFAULT_CARRIER})
      and p.recipient = ${handsetKeySql(sql`m.recipient`)}
    where m.id = any(${`{${messageIds.join(',')}}`}::uuid[])
      and p.received_at >= m.created_at and p.received_at < now() - make_interval(secs => ${settledMs / 1000})
      and not ${hasHolder}
    for update of p skip locked`);
  return found.map((r) => ({ messageId: r.message_id, carrier: r.carrier, smscId: r.smsc_id, receipt: r.receipt, receivedAt: new Date(r.received_at) }));
}
