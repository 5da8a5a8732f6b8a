import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { preparedRows, rows, type Executor } from '../../platform/db/client.ts';
import type { LinksOf } from '../../common/link-view.ts';
import { claimRowsInIndexOrder } from '../../platform/db/queue-claim.ts';
import { findRowsByIndex } from '../../platform/db/index-lookups.ts';
import { DEFAULT_CARRIER, type CustomerPart, type PartialSubmit } from '../../carrier/carrier.ts';
import { changeCredits } from '../credits/ledger.repo.ts';
import { endWithoutReceipt } from '../receipts/end-without-receipt.ts';

// The dispatcher's queue is the messages table itself: status 'queued' rows whose next_attempt_at has come.
// These statements serve every account at once (the queue is global), so unlike tenant queries they are keyed
// by message id. A claim is fenced by its token (platform/jobs/README.md): every claim writes a fresh one, so a
// worker whose lease ran out and was reclaimed by another finds its conditional updates matching nothing.
// `attempts` still counts claims: it is the retry policy's count, not the fence.

export interface Claimed {
  id: string;
  accountId: string;
  campaignId: string | null;
  sender: string;
  recipient: string;
  body: string | null;
  credits: number;
  /** Claims so far, this one included (the retry policy's count). */
  attempts: number;
  /** The fencing token this claim wrote (null only for a row never claimed, as tests drive these directly). */
  claim: string | null;
  createdAt: Date;
  /** A part of a customer's own long message (SMPP server): its concatenation fields, sent unchanged. */
  part?: CustomerPart | null;
  /** The end of the validity period its customer gave it (SMPP server), or null. */
  validUntil?: Date | null;
}

/**
 * Claims up to `limit` due messages for `leaseMs`. SKIP LOCKED lets concurrent claimers pass each other's rows.
 * Planned in index order whatever the statistics say (platform/db/queue-claim.ts): it reads the partial queue
 * index from the oldest due row and stops after `limit` rows, never the whole backlog.
 * It writes only columns no index of `messages` names (the lease, the token, the count), so the claim is a HOT
 * update: no index entry, a fraction of the WAL (decision 0078). Leased rows stay in the queue index's due range
 * and the lease filter passes over them (at most the submits in flight and their pending `sent` writes); a
 * crashed worker's rows come back by themselves when the lease runs out.
 */
export async function claimBatch(db: Executor, limit: number, leaseMs: number, token: string = randomUUID()): Promise<Claimed[]> {
  const found = await claimRowsInIndexOrder<ClaimedRow>(db, claimStatement(limit, leaseMs, token));
  return found.map((r) => ({
    id: r.id, accountId: r.account_id, campaignId: r.campaign_id, sender: r.sender, recipient: r.recipient, body: r.body,
    credits: r.credits, attempts: r.attempts, claim: token, createdAt: new Date(r.created_at), part: r.part,
    validUntil: r.valid_until === null ? null : new Date(r.valid_until),
  }));
}

interface ClaimedRow {
  id: string; account_id: string; campaign_id: string | null; sender: string; recipient: string; body: string | null;
  credits: number; attempts: number; created_at: Date | string; part: CustomerPart | null; valid_until: Date | string | null;
}

/**
 * claimBatch's statement (bench/claims.ts also runs it without the hint, as the baseline). Only a message flagged
 * at insert as a part of a customer's own long message (the SMPP server's) looks up its concatenation fields, and
 * only one flagged as carrying its customer's validity period looks that up (decision 0090).
 */
export function claimStatement(limit: number, leaseMs: number, token: string): SQL {
  return sql`
    with picked as (
      select id from messages
      where status = 'queued' and next_attempt_at <= now() and (lease_until is null or lease_until < now())
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update messages m
    set lease_until = now() + make_interval(secs => ${leaseMs / 1000}),
        attempts = m.attempts + 1,
        claim_token = ${token}
    from picked where m.id = picked.id
    returning m.id, m.account_id, m.campaign_id, m.sender, m.recipient, m.body, m.credits, m.attempts, m.created_at,
      case when m.customer_part then (
        select jsonb_build_object('form', p.form, 'ref', p.ref, 'total', p.total, 'seq', p.seq) from smpp_parts p where p.message_id = m.id
      ) end as part,
      case when m.customer_validity then (select v.valid_until from smpp_validity v where v.message_id = m.id) end as valid_until`;
}

/**
 * The heartbeat: extends the leases of messages still held under these claims (platform/jobs), a HOT update as the
 * claim's. The rows are found
 * by primary key: a plain `status = 'queued'` matches the queue index's predicate, and PostgreSQL read that whole
 * index (every queued message and dead entry: 28,876 with 10,000 queued) for each heartbeat, as recordSent did.
 */
export async function renewLeases(db: Executor, held: Array<{ id: string; claim: string }>, leaseMs: number): Promise<void> {
  if (held.length === 0) return;
  await db.execute(sql`
    update messages
    set lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    where id = any(${`{${held.map((h) => h.id).join(',')}}`}::uuid[])
      and claim_token = any(${`{${[...new Set(held.map((h) => h.claim))].join(',')}}`}::uuid[])
      and (status = 'queued') is true`);
}

export interface SentRecord {
  id: string;
  /** The claim's fencing token (null only for a row never claimed, as tests record). */
  claim: string | null;
  smscMessageId: string;
  segmentIds?: string[];
  /** The carrier that gave the ids (DEFAULT_CARRIER when absent), and which of its binds (0-based). */
  carrier?: string;
  bind?: number;
  sentAt: Date;
  /** Claimed before (attempts > 1): an earlier copy may have gone, its `sent` write lost in a crash. */
  resent?: boolean;
}

/** Runs in recordSent's transaction with the resent messages it recorded (their first copy's parked receipt). */
export type OnResent = (tx: Executor, messageIds: string[]) => Promise<void>;

/**
 * Records many accepted submits in one transaction (the dispatcher batches them). Only rows still held under
 * the same claim change; the segment ids of concatenated messages are stored so any segment's receipt finds
 * its message. Returns the ids that were recorded. A resent message's first copy may have a parked receipt that
 * no message will ever hold: `onResent` settles it in this transaction (modules/receipts, settleResent).
 *
 * Rows are found by primary key alone. `(m.status = 'queued') is true` means `m.status = 'queued'` (status is never
 * null) but does not match the partial queue index's predicate: written plainly, a never-analysed table (the
 * planner guesses 0.5% of rows queued) got a hash join over a bitmap scan of every queued message, and every dead
 * entry of that index, for each batch (17 ms for 20 rows with 5,000 queued; decision 0038). It stays a
 * condition on the row itself, so a row changed since the statement's snapshot is checked again (the claim fence).
 * A prepared statement: its text is fixed (the batch is one jsonb parameter).
 */
export async function recordSent(db: Executor, items: SentRecord[], onResent?: OnResent): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  return db.transaction(async (tx) => {
    await findRowsByIndex(tx);
    const updated = await preparedRows<{ id: string }>(tx, sql`
      update messages m
      set status = 'sent', sent_at = r.sent_at, smsc_message_id = r.smsc, smsc_carrier = r.carrier, smsc_bind = r.bind, lease_until = null, claim_token = null, error_code = null
      from jsonb_to_recordset(${JSON.stringify(items.map((i) => ({
        id: i.id, claim: i.claim, smsc: i.smscMessageId, carrier: i.carrier ?? DEFAULT_CARRIER, bind: i.bind ?? null, sent_at: i.sentAt.toISOString(),
      })))}::jsonb) as r(id uuid, claim uuid, smsc text, carrier text, bind smallint, sent_at timestamptz)
      where m.id = r.id and (m.status = 'queued') is true and m.claim_token is not distinct from r.claim
      returning m.id`);
    const ids = new Set(updated.map((r) => r.id));
    await recordSegments(tx, items.filter((i) => ids.has(i.id) && i.segmentIds && i.segmentIds.length > 1)
      .flatMap((i) => i.segmentIds!.map((smscMessageId, seq) => ({ smscMessageId, messageId: i.id, seq, carrier: i.carrier, bind: i.bind }))));
    const resent = items.filter((i) => i.resent && ids.has(i.id)).map((i) => i.id);
    if (resent.length > 0 && onResent) await onResent(tx, resent);
    return ids;
  });
}

/** Segment ids of concatenated messages, so any segment's receipt finds its message. */
async function recordSegments(tx: Executor, segments: Array<{ smscMessageId: string; messageId: string; seq: number; carrier?: string | undefined; bind?: number | undefined }>): Promise<void> {
  if (segments.length === 0) return;
  // An SMSC that recycles ids: the newer message takes the id over.
  await preparedRows(tx, sql`
    insert into message_segments (carrier, smsc_message_id, message_id, seq, bind)
    select r.carrier, r.smsc, r.message_id, r.seq, r.bind
    from jsonb_to_recordset(${JSON.stringify(segments.map((s) => ({
      carrier: s.carrier ?? DEFAULT_CARRIER, smsc: s.smscMessageId, message_id: s.messageId, seq: s.seq, bind: s.bind ?? null,
    })))}::jsonb) as r(carrier text, smsc text, message_id uuid, seq int, bind smallint)
    on conflict (carrier, smsc_message_id) do update set message_id = excluded.message_id, seq = excluded.seq, bind = excluded.bind, dlr_status = null`);
}

/**
 * Some segments of a multi-part message were accepted and another was refused (or lost): the recipient may
 * have part of it, so it is not resent and not refunded as if never sent. It fails with `partially_sent` and
 * a `rejected` delivery_receipt with its message.dlr (endWithoutReceipt), the accepted segments are recorded
 * (their receipts find it final and change nothing), and only the credits of the segments never accepted come
 * back, rounded down. Null when the claim was no longer ours.
 */
export async function failPartlySent(
  db: Executor, linksOf: LinksOf, c: Claimed, p: { partial: PartialSubmit; carrier?: string | undefined; bind?: number | undefined; errorCode: string; sentAt: Date },
): Promise<{ refunded: number } | null> {
  const refund = Math.floor((c.credits * (p.partial.segments - p.partial.accepted.length)) / p.partial.segments);
  return db.transaction(async (tx) => {
    const failed = await rows<{ id: string }>(tx, sql`
      update messages set status = 'failed', error_code = 'partially_sent', lease_until = null, claim_token = null,
        sent_at = ${p.sentAt.toISOString()}, smsc_message_id = ${p.partial.accepted[0]?.smscMessageId ?? null},
        smsc_carrier = ${p.carrier ?? DEFAULT_CARRIER}, smsc_bind = ${p.bind ?? null}
      where id = ${c.id} and status = 'queued' and claim_token is not distinct from ${c.claim}::uuid
      returning id`);
    if (failed.length === 0) return null;
    await recordSegments(tx, p.partial.accepted.map((a) => ({ smscMessageId: a.smscMessageId, messageId: c.id, seq: a.seq, carrier: p.carrier, bind: p.bind })));
    if (refund > 0) await changeCredits(tx, { accountId: c.accountId, delta: refund, kind: 'refund', messageId: c.id, campaignId: c.campaignId });
    await endWithoutReceipt(tx, { messageId: c.id, status: 'rejected', errorCode: p.errorCode }, linksOf);
    return { refunded: refund };
  });
}

/**
 * The SMSC refused the message for good, or it ran out of attempts: failed, and its credits come back with a
 * refund ledger row in the same transaction (it never left). It ends with a `rejected` delivery_receipt and its
 * message.dlr event, also in that transaction. False when the claim was no longer ours.
 */
export async function failAndRefund(db: Executor, linksOf: LinksOf, c: Claimed, errorCode: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const failed = await rows<{ id: string }>(tx, sql`
      update messages set status = 'failed', error_code = ${errorCode}, lease_until = null, claim_token = null
      where id = ${c.id} and status = 'queued' and claim_token is not distinct from ${c.claim}::uuid
      returning id`);
    if (failed.length === 0) return false;
    await changeCredits(tx, { accountId: c.accountId, delta: c.credits, kind: 'refund', messageId: c.id, campaignId: c.campaignId });
    await endWithoutReceipt(tx, { messageId: c.id, status: 'rejected', errorCode }, linksOf);
    return true;
  });
}

/** A temporary refusal: back in the queue after `delayMs`, keeping the error for the operator. */
export async function scheduleRetry(db: Executor, c: Claimed, errorCode: string, delayMs: number): Promise<boolean> {
  const updated = await rows<{ id: string }>(db, sql`
    update messages
    set next_attempt_at = now() + make_interval(secs => ${delayMs / 1000}), lease_until = null, claim_token = null, error_code = ${errorCode}
    where id = ${c.id} and status = 'queued' and claim_token is not distinct from ${c.claim}::uuid
    returning id`);
  return updated.length > 0;
}
