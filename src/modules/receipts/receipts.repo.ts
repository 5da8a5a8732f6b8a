import { and, asc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { DEFAULT_CARRIER } from '../../carrier/carrier.ts';
import { findRowsByIndex } from '../../platform/db/index-lookups.ts';
import { preparedRows, rows, type Executor } from '../../platform/db/client.ts';
import { messages, messageSegments } from '../../platform/db/schema/index.ts';
import type { MessageRow } from '../messages/messages.repo.ts';
import type { FinalState } from './receipt-outcome.ts';
import { textArray, type SmscRef } from './parked.repo.ts';

export type { ParkedReceipt, SmscRef } from './parked.repo.ts';

// Receipts arrive from the carrier knowing only the SMSC's message id, not the account: these lookups are keyed
// by that id, and everything they touch is the one message it names.

/**
 * What a receipt for this SMSC id on this carrier reports on. SMSCs reuse ids (after a restart, or when a counter
 * wraps), so several messages and segments may carry one: the most recently sent wins, segment or single-part
 * message alike. A segment id that a newer single-part message took over must not lead to the old message.
 */
export async function findHolder(tx: Executor, carrier: string, smscId: string): Promise<Holder | null> {
  const [row] = await rows<{ kind: 'segment' | 'message'; message_id: string; awaiting: boolean }>(tx, sql`
    select kind, message_id, awaiting from (
      select 'segment' as kind, s.message_id, m.sent_at, (s.dlr_status is null and m.status = 'sent') as awaiting
      from message_segments s join messages m on m.id = s.message_id
      where s.carrier = ${carrier} and s.smsc_message_id = ${smscId}
      union all
      select 'message' as kind, m.id, m.sent_at, (m.dlr_status is null and m.status = 'sent') as awaiting
      from messages m
      where m.smsc_message_id = ${smscId} and coalesce(m.smsc_carrier, ${DEFAULT_CARRIER}) = ${carrier} and m.sent_at is not null
        and not exists (select 1 from message_segments s where s.message_id = m.id)
    ) holders
    order by sent_at desc nulls last
    limit 1`);
  return row ? { kind: row.kind, messageId: row.message_id, awaiting: row.awaiting } : null;
}

/** The message or segment a receipt reports on; `awaiting`: it has no final receipt yet. */
export interface Holder { kind: 'segment' | 'message'; messageId: string; awaiting: boolean }

/** Locks the message so concurrent receipts for its segments are applied one after another. */
export async function lockMessage(tx: Executor, id: string): Promise<MessageRow | null> {
  const [row] = await tx.select().from(messages).where(eq(messages.id, id)).for('update');
  return row ?? null;
}

/** Records a segment's final state once; false when it already had one (a repeated receipt). */
export async function markSegment(tx: Executor, carrier: string, smscId: string, state: FinalState): Promise<boolean> {
  const updated = await tx.update(messageSegments).set({ dlrStatus: state })
    .where(and(eq(messageSegments.carrier, carrier), eq(messageSegments.smscMessageId, smscId), isNull(messageSegments.dlrStatus)))
    .returning({ id: messageSegments.smscMessageId });
  return updated.length > 0;
}

export async function segmentStates(tx: Executor, messageId: string): Promise<Array<string | null>> {
  const found = await tx.select({ state: messageSegments.dlrStatus }).from(messageSegments)
    .where(eq(messageSegments.messageId, messageId)).orderBy(asc(messageSegments.seq));
  return found.map((r) => r.state);
}

/**
 * Applies the final receipt once, to a message still `sent`: one that already has a receipt, or that failed at
 * submit after some of its segments were accepted, is left as it is (returns null).
 */
export async function applyFinal(
  tx: Executor, messageId: string, r: { state: FinalState; status: 'delivered' | 'failed'; receivedAt: Date; errorCode: string | null },
): Promise<MessageRow | null> {
  const [row] = await tx.update(messages)
    // A receipt that overtook its submit response can carry a time a hair before sent_at; never show it so.
    .set({
      status: r.status, dlrStatus: r.state, dlrErrorCode: r.errorCode,
      dlrReceivedAt: sql`greatest(${r.receivedAt.toISOString()}::timestamptz, ${messages.sentAt})`,
    })
    .where(and(eq(messages.id, messageId), isNull(messages.dlrStatus), eq(messages.status, 'sent')))
    .returning();
  return row ?? null;
}

export interface FinalReceipt {
  carrier: string;
  smscId: string;
  state: FinalState;
  status: 'delivered' | 'failed';
  errorCode: string | null;
  receivedAt: Date;
}

// Drizzle's own mapping of a raw `messages` row (snake_case, timestamps as text) to a MessageRow.
const messageColumns = Object.entries(getTableColumns(messages));
// The columns this build knows, named rather than `m.*`: applyFinalBatch runs prepared, and a prepared statement
// whose `*` came to mean more columns (a newer build's migration, in a rolling upgrade) fails on every call with
// "cached plan must not change result type" until its connection closes.
const returnedColumns = sql.raw(messageColumns.map(([, column]) => `m."${column.name}"`).join(', '));
function toMessageRow(raw: Record<string, unknown>): MessageRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of messageColumns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as MessageRow;
}

/**
 * Applies many single-part receipts in the caller's transaction, in one statement. Only SMSC ids that name a sent
 * single-part message are handled here (the most recently sent one on the carrier, as findHolder); the returned
 * `handled` set lists them, including ones whose message already had its receipt (a repeat). Segment ids and
 * unknown ids are left to the one-receipt path (an id any segment on the carrier carries goes there, which picks
 * the newest holder). The first receipt for a (carrier, id) counts. Keys are `receiptKey(r)`. Returns the rows it
 * changed, for their events, and the handled receipts whose message already had its outcome (`alreadyFinal`: a
 * repeat, or a reused id), for the log.
 *
 * The batch never waits for a row lock: the newest holder is chosen first (unlocked, from the statement's
 * snapshot), then its row is locked `SKIP LOCKED`. A receipt whose message another transaction holds (the
 * dispatcher's `sent` write, another process's receipt, an expiry) is left out of `handled` and goes the
 * one-receipt way, which waits for that lock on its own connection. So one batch at a time holds up no receipt
 * behind someone else's lock (README.md), and a locked newest holder is never replaced by an older message with
 * the same id (the lock is taken on the chosen row, not while choosing). The locked row is the latest version
 * (READ COMMITTED re-reads a row changed since the snapshot), so whether it still takes the receipt, and that it
 * still carries the id, are read from it.
 *
 * The lock costs a WAL record per message (Heap/LOCK, before the update's own record), and no form of the
 * statement avoids it while still never waiting: PostgreSQL has no UPDATE ... SKIP LOCKED, an UPDATE whose rows
 * come from a `FOR [NO KEY] UPDATE SKIP LOCKED` subquery writes the same lock record and update record per row as
 * this one (pg_walinspect), and an UPDATE without it waits for a held row.
 *
 * One statement rather than lock, update and read back (each a round trip, and a batch holds its locks and its
 * connection for all of them): the receipt's deliver_sm_resp waits for this transaction. The update finds its
 * rows by primary key alone: the old update also filtered on `messages.status = 'sent'`, and without fresh
 * statistics PostgreSQL planned it as a walk over every message awaiting a receipt, re-reading the batch for each
 * (740 ms for 50 receipts with 8,800 awaiting; decision 0038). A prepared statement (its text is fixed: the
 * receipts are one jsonb parameter, the ids one text[]): parsing and planning it cost ~1.3 ms of the server's CPU
 * per batch. Call it in a transaction: it plans the rest of it without sequential scans (platform/db/index-lookups.ts).
 */
export async function applyFinalBatch(tx: Executor, receipts: FinalReceipt[]): Promise<{ handled: Set<string>; updated: MessageRow[]; alreadyFinal: string[] }> {
  const first = new Map<string, FinalReceipt>();
  for (const r of receipts) if (!first.has(receiptKey(r))) first.set(receiptKey(r), r);
  const input = JSON.stringify([...first.values()].map((r) => ({
    carrier: r.carrier, smsc: r.smscId, state: r.state, status: r.status, err: r.errorCode, received_at: r.receivedAt.toISOString(),
  })));
  const ids = [...new Set(receipts.map((r) => r.smscId))];
  // For the rest of the caller's transaction (the message.dlr outbox insert after this too): index lookups only.
  await findRowsByIndex(tx);
  const found = await preparedRows<Record<string, unknown> & { h_carrier: string; h_smsc: string; h_updated: boolean }>(tx, sql`
    with input as (
      select * from jsonb_to_recordset(${input}::jsonb) as r(carrier text, smsc text, state text, status text, err text, received_at timestamptz)
    ), candidates as materialized (
      select m.id, m.smsc_message_id, coalesce(m.smsc_carrier, ${DEFAULT_CARRIER}) as carrier, m.sent_at
      from messages m
      where m.smsc_message_id = any(${textArray(ids)}::text[]) and m.sent_at is not null
        and not exists (select 1 from message_segments s
          where s.smsc_message_id = m.smsc_message_id and s.carrier = coalesce(m.smsc_carrier, ${DEFAULT_CARRIER}))
    ), newest as materialized (
      select distinct on (c.carrier, c.smsc_message_id) c.id, c.carrier, c.smsc_message_id
      from candidates c join input r on r.carrier = c.carrier and r.smsc = c.smsc_message_id
      order by c.carrier, c.smsc_message_id, c.sent_at desc, c.id
    ), locked as materialized (
      select m.id, m.smsc_message_id, coalesce(m.smsc_carrier, ${DEFAULT_CARRIER}) as carrier, m.status, m.dlr_status
      from messages m
      where m.id = any(array(select id from newest))
      for update of m skip locked
    ), held as materialized (
      select l.* from locked l join newest n on n.id = l.id and n.carrier = l.carrier and n.smsc_message_id = l.smsc_message_id
    ), updated as (
      update messages m
      set status = r.status, dlr_status = r.state, dlr_error_code = r.err, dlr_received_at = greatest(r.received_at, m.sent_at)
      from held h join input r on r.carrier = h.carrier and r.smsc = h.smsc_message_id
      where m.id = h.id and h.dlr_status is null and h.status = 'sent'
      returning ${returnedColumns}
    )
    select h.carrier as h_carrier, h.smsc_message_id as h_smsc, u.id is not null as h_updated, u.*
    from held h left join updated u on u.id = h.id`);
  const handled = new Set<string>();
  const updated: MessageRow[] = [];
  const alreadyFinal: string[] = [];
  for (const row of found) {
    const key = receiptKey({ carrier: row.h_carrier, smscId: row.h_smsc });
    handled.add(key);
    if (row.h_updated) updated.push(toMessageRow(row));
    else alreadyFinal.push(key);
  }
  return { handled, updated, alreadyFinal };
}

/** One string per (carrier, SMSC id). */
export const receiptKey = (r: SmscRef): string => `${r.carrier}\u0000${r.smscId}`;

/**
 * Locks up to `limit` messages sent before `cutoff` that never got a final receipt, oldest first. SKIP LOCKED lets
 * several processes share the work, and a receipt being applied at the same moment keeps its row.
 */
/**
 * Sent messages past `cutoff` still without a receipt, locked. `carriers`: only those sent through these carriers
 * (`in`), or through none of them (`notIn`, which includes a message without a carrier): each carrier's own
 * validity period gives its messages their own cutoff.
 */
export async function lockOverdue(tx: Executor, cutoff: Date, limit: number, carriers?: { in: string[] } | { notIn: string[] }): Promise<string[]> {
  const which = !carriers ? sql``
    : 'in' in carriers ? sql`and smsc_carrier = any(${textArray(carriers.in)}::text[])`
      : carriers.notIn.length === 0 ? sql`` : sql`and (smsc_carrier is null or smsc_carrier <> all(${textArray(carriers.notIn)}::text[]))`;
  const due = await rows<{ id: string }>(tx, sql`
    select id from messages
    where status = 'sent' and sent_at < ${cutoff.toISOString()}::timestamptz ${which}
    order by sent_at
    limit ${limit}
    for update skip locked`);
  return due.map((d) => d.id);
}
