import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { messages, messageSegments, pendingReceipts } from '../../platform/db/schema/index.ts';
import type { MessageRow } from '../messages/messages.repo.ts';
import type { FinalState } from './receipt-outcome.ts';

// Receipts arrive from the carrier knowing only the SMSC's message id, not the account: these lookups are keyed
// by that id, and everything they touch is the one message it names.

export interface ParkedReceipt {
  state: FinalState;
  errorCode: string | null;
}

/** The segment row for an SMSC id, when the id belongs to a concatenated message. */
export async function findSegment(tx: Executor, smscId: string): Promise<{ messageId: string } | null> {
  const [row] = await tx.select({ messageId: messageSegments.messageId }).from(messageSegments)
    .where(eq(messageSegments.smscMessageId, smscId));
  return row ?? null;
}

/** Locks the message so concurrent receipts for its segments are applied one after another. */
export async function lockMessage(tx: Executor, id: string): Promise<MessageRow | null> {
  const [row] = await tx.select().from(messages).where(eq(messages.id, id)).for('update');
  return row ?? null;
}

/** Some SMSCs recycle ids: the most recently sent message with this id is the one a receipt reports on. */
export async function lockMessageBySmscId(tx: Executor, smscId: string): Promise<MessageRow | null> {
  const [row] = await tx.select().from(messages)
    .where(and(eq(messages.smscMessageId, smscId), ne(messages.status, 'queued')))
    .orderBy(desc(messages.sentAt)).limit(1).for('update');
  return row ?? null;
}

/** Records a segment's final state once; false when it already had one (a repeated receipt). */
export async function markSegment(tx: Executor, smscId: string, state: FinalState): Promise<boolean> {
  const updated = await tx.update(messageSegments).set({ dlrStatus: state })
    .where(and(eq(messageSegments.smscMessageId, smscId), isNull(messageSegments.dlrStatus)))
    .returning({ id: messageSegments.smscMessageId });
  return updated.length > 0;
}

export async function segmentStates(tx: Executor, messageId: string): Promise<Array<string | null>> {
  const found = await tx.select({ state: messageSegments.dlrStatus }).from(messageSegments)
    .where(eq(messageSegments.messageId, messageId)).orderBy(asc(messageSegments.seq));
  return found.map((r) => r.state);
}

/** Applies the final receipt once: a message that already has one is left as it is (returns null). */
export async function applyFinal(
  tx: Executor, messageId: string, r: { state: FinalState; status: 'delivered' | 'failed'; receivedAt: Date; errorCode: string | null },
): Promise<MessageRow | null> {
  const [row] = await tx.update(messages)
    // A receipt that overtook its submit response can carry a time a hair before sent_at; never show it so.
    .set({
      status: r.status, dlrStatus: r.state, dlrErrorCode: r.errorCode,
      dlrReceivedAt: sql`greatest(${r.receivedAt.toISOString()}::timestamptz, ${messages.sentAt})`,
    })
    .where(and(eq(messages.id, messageId), isNull(messages.dlrStatus)))
    .returning();
  return row ?? null;
}

export async function parkReceipt(db: Executor, smscId: string, receipt: ParkedReceipt, receivedAt: Date): Promise<void> {
  await db.insert(pendingReceipts).values({ smscMessageId: smscId, receipt, receivedAt }).onConflictDoNothing();
}

/** Locks a parked receipt; a concurrent resolver waits, then finds it gone. */
export async function lockParked(tx: Executor, smscId: string): Promise<{ receipt: ParkedReceipt; receivedAt: Date } | null> {
  const [row] = await tx.select({ receipt: pendingReceipts.receipt, receivedAt: pendingReceipts.receivedAt })
    .from(pendingReceipts).where(eq(pendingReceipts.smscMessageId, smscId)).for('update');
  return row ? { receipt: row.receipt as ParkedReceipt, receivedAt: row.receivedAt } : null;
}

export async function deleteParked(tx: Executor, smscId: string): Promise<void> {
  await tx.delete(pendingReceipts).where(eq(pendingReceipts.smscMessageId, smscId));
}

export async function parkedAmong(db: Executor, smscIds: string[]): Promise<string[]> {
  if (smscIds.length === 0) return [];
  const found = await db.select({ id: pendingReceipts.smscMessageId }).from(pendingReceipts)
    .where(inArray(pendingReceipts.smscMessageId, smscIds));
  return found.map((r) => r.id);
}

/** The oldest parked receipts' SMSC ids, for the periodic sweep. */
export async function oldestParked(db: Executor, limit: number): Promise<string[]> {
  const found = await db.select({ id: pendingReceipts.smscMessageId }).from(pendingReceipts)
    .orderBy(pendingReceipts.receivedAt).limit(limit);
  return found.map((r) => r.id);
}

/** Receipts whose message never turned up (another system's ids, or messages long gone). */
export async function purgeParked(db: Executor, olderThanMs: number): Promise<void> {
  await db.delete(pendingReceipts)
    .where(sql`${pendingReceipts.receivedAt} < now() - make_interval(secs => ${olderThanMs / 1000})`);
}

/** A PostgreSQL text[] literal, one parameter: the planner then uses the smsc id index (a set-returning function would not). */
const textArray = (values: string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

export interface FinalReceipt {
  smscId: string;
  state: FinalState;
  status: 'delivered' | 'failed';
  errorCode: string | null;
  receivedAt: Date;
}

/**
 * Applies many single-part receipts in the caller's transaction with a few statements in all. Only SMSC ids that
 * name a sent single-part message are handled here (the most recently sent one, as lockMessageBySmscId); the
 * returned `handled` set lists them, including ones whose message already had its receipt (a repeat). Segment
 * ids and unknown ids are left to the one-receipt path. Messages are locked in id order, so two batches
 * (two processes) cannot deadlock each other. Returns the rows it changed, for their events.
 */
export async function applyFinalBatch(tx: Executor, receipts: FinalReceipt[]): Promise<{ handled: Set<string>; updated: MessageRow[] }> {
  const ids = [...new Set(receipts.map((r) => r.smscId))];
  const candidates = await rows<{ id: string; smsc_message_id: string; sent_at: Date | string | null }>(tx, sql`
    select m.id, m.smsc_message_id, m.sent_at from messages m
    where m.smsc_message_id = any(${textArray(ids)}::text[]) and m.status <> 'queued'
      and not exists (select 1 from message_segments s where s.smsc_message_id = m.smsc_message_id)
    order by m.id
    for update of m`);
  const newest = new Map<string, { id: string; sentAt: number }>();
  for (const c of candidates) {
    const sentAt = c.sent_at === null ? -Infinity : new Date(c.sent_at).getTime();
    const seen = newest.get(c.smsc_message_id);
    if (!seen || sentAt > seen.sentAt) newest.set(c.smsc_message_id, { id: c.id, sentAt });
  }
  const first = new Map<string, FinalReceipt>();
  for (const r of receipts) if (newest.has(r.smscId) && !first.has(r.smscId)) first.set(r.smscId, r);
  if (first.size === 0) return { handled: new Set(), updated: [] };
  const input = JSON.stringify([...first.values()].map((r) => ({
    id: newest.get(r.smscId)!.id, state: r.state, status: r.status, err: r.errorCode, received_at: r.receivedAt.toISOString(),
  })));
  const changed = await rows<{ id: string }>(tx, sql`
    update messages m
    set status = r.status, dlr_status = r.state, dlr_error_code = r.err, dlr_received_at = greatest(r.received_at, m.sent_at)
    from jsonb_to_recordset(${input}::jsonb) as r(id uuid, state text, status text, err text, received_at timestamptz)
    where m.id = r.id and m.dlr_status is null
    returning m.id`);
  const updated = changed.length === 0 ? [] : await tx.select().from(messages).where(inArray(messages.id, changed.map((c) => c.id)));
  return { handled: new Set(first.keys()), updated };
}
