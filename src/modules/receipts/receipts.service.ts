import type { Receipt, ReceiptAnswer } from '../../carrier/carrier.ts';
import type { Db, Executor } from '../../platform/db/client.ts';
import { createBatcher } from '../../platform/jobs/batcher.ts';
import { toMessageView } from '../messages/message-view.ts';
import type { LinksOf } from '../../common/link-view.ts';
import { recordEvent, recordEvents } from '../webhooks/outbox.ts';
import type { MessageRow } from '../messages/messages.service.ts';
import type { FirstAttempts } from '../webhooks/first-attempt.ts';
import { combinedState, finalOutcome, statusFor, type FinalState } from './receipt-outcome.ts';
import {
  applyFinal, applyFinalBatch, findHolder, lockMessage, lockOverdue, markSegment, receiptKey, segmentStates,
} from './receipts.repo.ts';
import {
  deleteParked, ORPHAN_AFTER_MS, lockParked, orphanStats, parkedAmong, parkedWithHolder, parkReceipt, purgeOrphans,
  type ParkedExtra, type ParkedReceipt, type SmscRef,
} from './parked.repo.ts';
import { createRecentReceipts } from './recent-receipts.ts';
import { settleFirstCopies } from './first-copy.ts';
import { sameHandset } from './handset.ts';
import { DEFAULT_CARRIER } from '../../carrier/carrier.ts';
import { endWithoutReceipt } from './end-without-receipt.ts';
import { createIntermediateReceipts } from './intermediate.ts';

const RECEIPT_BATCH = 500;
// One receipt batch at a time, so receipts arriving during a commit make one large next batch (group commit) rather
// than several small ones: four at a time halved the batches and cost the pipeline 8% (decision 0014).
// One is safe because a batch never waits for a row lock (applyFinalBatch skips locked rows).
const RECEIPT_BATCHES_IN_FLIGHT = 1;
const SWEEP_BATCH = 500;

export interface ReceiptServiceDeps {
  db: Db;
  /** The links of messages, for their message.dlr bodies (links.viewsOf). */
  linksOf: LinksOf;
  now?: () => Date;
  /** Called after a commit that recorded webhook events (wakes the webhook worker). */
  onEvents?: () => void;
  /** This process's webhook worker's first attempts, while it runs one (webhooks/first-attempt.ts), else null. */
  firstAttempts?: () => FirstAttempts | null;
  logger?: { warn(obj: object, msg?: string): void };
  /** The validity period set on every submit (MESSAGE_VALIDITY_HOURS, default 48). */
  validityHours?: number;
  /** Carriers whose own `validity_hours` (TASMAN_CARRIERS) their submits carry instead: carrier id → hours. */
  carrierValidityHours?: Record<string, number>;
  /**
   * In the transaction that gives messages their outcome, with the updated rows: the SMPP server queues the
   * receipts its customers asked for (modules/smpp-credentials). Unset when the server is off.
   */
  onFinal?: (tx: Executor, rows: MessageRow[]) => Promise<void>;
}

// After the validity period the SMSC's own EXPIRED receipt may still be on its way: give it this long.
const EXPIRY_GRACE_MS = 60 * 60_000;
const EXPIRY_BATCH = 500;


/**
 * Delivery receipts from the carrier. A final receipt sets the message's status and delivery_receipt once, and
 * the message.dlr event is recorded in the same transaction (transactional outbox). The promise resolves only
 * after commit, because the carrier acknowledges the SMSC (deliver_sm_resp) when it does.
 *
 * A receipt can overtake its submit_sm_resp. There is one path for it (README.md): nothing has the id yet, so it
 * is parked in pending_receipts. Both sides write, commit, then look for the other: the dispatcher resolves
 * parked receipts after recording `sent`, and a parked receipt is re-tried right after it is parked. Whichever
 * order the two commits land in, at least one side sees the other, and the row lock on the parked receipt makes
 * sure only one applies it. A periodic sweep (sweepParked) retries what is left, as a backstop.
 */
export function createReceiptService(deps: ReceiptServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  // Events recorded since the last wake. Raised after the commit; a rolled-back count only costs one idle wake.
  let recordedEvents = 0;
  const wakeIfRecorded = () => {
    if (recordedEvents === 0) return;
    recordedEvents = 0;
    deps.onEvents?.();
  };

  // A receipt for a message that already has its outcome, about the same handset (or one the receipt does not
  // name): a repeat. Nothing changes; it is logged. (One about another handset is parked instead: see apply.)
  const alreadyFinal = (ref: SmscRef, messageId: string | null) =>
    deps.logger?.warn({ carrier: ref.carrier, smscId: ref.smscId, messageId }, 'receipt for a message already final; ignored');

  /**
   * Applies a final receipt to the newest message or segment carrying the id on its carrier (findHolder); false
   * when none does yet. A holder that already has its outcome takes a receipt about its own handset as a repeat;
   * one about another handset is for a newer message the SMSC gave the id to again (a restart, a wrapping counter)
   * whose `sent` write is still pending: false, so it is parked and applied when that write commits.
   */
  async function apply(tx: Executor, ref: SmscRef, r: ParkedReceipt, receivedAt: Date, handset: string | null | undefined): Promise<boolean> {
    const holder = await findHolder(tx, ref.carrier, ref.smscId);
    if (!holder) return false;
    const message = await lockMessage(tx, holder.messageId);
    if (!message) return true;
    if (!holder.awaiting && handset && !sameHandset(handset, message.recipient)) return false;
    let state: FinalState = r.state;
    let errorCode = r.errorCode;
    if (holder.kind === 'segment') {
      if (!(await markSegment(tx, ref.carrier, ref.smscId, r.state))) { alreadyFinal(ref, message.id); return true; }
      const combined = combinedState(await segmentStates(tx, message.id));
      if (combined === null) return true;
      state = combined;
      if (combined !== r.state) errorCode = null;
    }
    const updated = await applyFinal(tx, message.id, { state, status: statusFor(state), receivedAt, errorCode });
    if (!updated) { alreadyFinal(ref, message.id); return true; }
    await deps.onFinal?.(tx, [updated]);
    const links = await deps.linksOf(tx, [updated]);
    if (await recordEvent(tx, { accountId: updated.accountId, event: 'message.dlr', messageId: updated.id, body: toMessageView(updated, links.get(updated.id) ?? []) })) {
      recordedEvents += 1;
    }
    return true;
  }

  /**
   * Which of a receipt's readings (carrier/smpp/id-forms.ts) names its message: the one some message or segment
   * holds; of several, the one still awaiting its receipt; several awaiting is a conflict, and none is applied.
   */
  async function choose(tx: Executor, carrier: string, ids: string[]): Promise<string | 'conflict' | null> {
    if (ids.length === 1) return ids[0]!;
    const held: Array<{ id: string; awaiting: boolean }> = [];
    for (const id of ids) {
      const holder = await findHolder(tx, carrier, id);
      if (holder) held.push({ id, awaiting: holder.awaiting });
    }
    if (held.length <= 1) return held[0]?.id ?? null;
    const awaiting = held.filter((h) => h.awaiting);
    if (awaiting.length === 1) return awaiting[0]!.id;
    return awaiting.length === 0 ? held[0]!.id : 'conflict';
  }

  /** apply() under the reading that names the message: which one matched, or a conflict. */
  async function applyReadings(tx: Executor, carrier: string, ids: string[], r: ParkedReceipt, receivedAt: Date, handset: string | null | undefined): Promise<{ matched: string | null; conflict?: true }> {
    const id = await choose(tx, carrier, ids);
    if (id === 'conflict') {
      deps.logger?.warn({ carrier, smscIds: ids }, 'receipt id matches several messages under its readings; not applied');
      return { matched: null, conflict: true };
    }
    if (id === null) return { matched: null };
    return (await apply(tx, { carrier, smscId: id }, r, receivedAt, handset)) ? { matched: id } : { matched: null };
  }

  /** Applies these parked receipts where a message now holds their id (under any reading). Returns how many. */
  async function resolveRefs(refs: SmscRef[]): Promise<number> {
    let applied = 0;
    for (const ref of refs) {
      await db.transaction(async (tx) => {
        const parked = await lockParked(tx, ref);
        if (!parked) return;
        const result = await applyReadings(tx, ref.carrier, [ref.smscId, ...parked.otherIds], parked.receipt, parked.receivedAt, parked.recipient);
        if (result.matched === null && !result.conflict) return;
        await deleteParked(tx, ref);
        applied++;
      });
      wakeIfRecorded();
    }
    return applied;
  }

  /** Applies the parked receipts among these SMSC ids whose message is now known. Returns how many it applied. */
  const resolveParked = async (smscIds: string[]): Promise<number> => resolveRefs(await parkedAmong(db, smscIds));

  /** The one-receipt path: segments, unknown ids (parked), ids with several readings, a failed batch's. */
  async function applyOne(ref: SmscRef, parked: ParkedReceipt, receivedAt: Date, extra: ParkedExtra): Promise<ReceiptAnswer> {
    const ids = [ref.smscId, ...(extra.otherIds ?? [])];
    const result = await db.transaction((tx) => applyReadings(tx, ref.carrier, ids, parked, receivedAt, extra.recipient));
    wakeIfRecorded();
    if (result.matched !== null || result.conflict) return result;
    await parkReceipt(db, ref, parked, receivedAt, extra);
    await resolveParked([ref.smscId]);
    return { matched: null };
  }

  // Receipts go through the write-behind batcher: under load one transaction of a few statements serves many
  // receipts instead of one transaction of five statements each. Each caller's promise resolves only after the
  // commit that covered its receipt (deliver_sm_resp follows it). A receipt the batch did not handle (unknown
  // id, a segment, a message whose row another transaction holds) or a batch that rolled back (a lost
  // connection) goes the one-receipt way, which waits for the lock on its own connection.
  // One batch at a time: the batch never waits for a lock (it skips locked rows), so a receipt behind it waits
  // only for that batch's few statements, never for someone else's transaction (test/api/receipt-batches.test.ts).
  type Queued = { ref: SmscRef; parked: ParkedReceipt; receivedAt: Date };
  const batch = createBatcher<Queued, boolean>({
    maxSize: RECEIPT_BATCH,
    maxConcurrent: RECEIPT_BATCHES_IN_FLIGHT,
    run: async (items) => {
      // The batch's webhooks start right after its commit, from this process, without a claim (decision 0074).
      const first = deps.firstAttempts?.() ?? undefined;
      try {
        const { handled, alreadyFinal: final } = await db.transaction(async (tx) => {
          const result = await applyFinalBatch(tx, items.map((q) => ({
            ...q.ref, state: q.parked.state, status: statusFor(q.parked.state), errorCode: q.parked.errorCode, receivedAt: q.receivedAt,
          })));
          await deps.onFinal?.(tx, result.updated);
          const links = await deps.linksOf(tx, result.updated);
          recordedEvents += await recordEvents(tx, 'message.dlr', result.updated.map((row) => ({
            accountId: row.accountId, messageId: row.id, body: toMessageView(row, links.get(row.id) ?? []),
          })), first);
          return result;
        });
        first?.committed();
        // One whose message already had its outcome goes the one-receipt way, which tells a repeat from a receipt
        // for a newer message with a reused id (apply). Both are rare.
        const finalAlready = new Set(final);
        return items.map((q) => handled.has(receiptKey(q.ref)) && !finalAlready.has(receiptKey(q.ref)));
      } catch {
        first?.cancel();
        return items.map(() => false);
      } finally {
        wakeIfRecorded();
      }
    },
  });

  // A receipt on its way to the batch; `resolve` says whether the batch handled it.
  type Waiting = { queued: Queued; resolve(handled: boolean): void; reject(err: unknown): void };
  // Receipts that arrive together go to the batcher together (submitAll): with the batch slot free, one at a time
  // would start a batch of one with the first and make the rest wait for it.
  const toBatch = (ready: Waiting[]) => {
    if (ready.length === 0) return;
    batch.submitAll(ready.map((w) => w.queued)).forEach((answer, i) => answer.then(ready[i]!.resolve, ready[i]!.reject));
  };

  // SMSC ids accepted in this process whose `sent` write has not committed yet (the dispatcher writes in
  // batches), with the receipts waiting for that commit rather than missing the batch and going the one-receipt
  // way (or being parked): with prompt receipts nearly every receipt would overtake the write.
  // A hint only: parking stays the one durable path for other processes and for a write that never commits.
  // Keyed by (carrier, id) (receiptKey): two carriers may hand out the same id, and a receipt from one must not
  // wait for, or be taken for, the other's write.
  const unrecorded = new Map<string, Waiting[]>();
  // Non-final receipts waiting, outside the batch, for the same `sent` writes (intermediate.ts).
  const afterSentWrite = new Map<string, Array<() => void>>();
  async function sentWritten(ref: SmscRef): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    const key = receiptKey(ref);
    if (!unrecorded.has(key)) return;
    await new Promise<void>((resolve) => afterSentWrite.set(key, [...(afterSentWrite.get(key) ?? []), resolve]));
  }
  const onIntermediate = createIntermediateReceipts({ db, linksOf: deps.linksOf, now, sentWritten, onEvent: () => deps.onEvents?.() });

  // Receipts that arrived this event-loop turn. The submit_sm_resp may sit in the same socket read as its
  // receipt: one macrotask turn lets the dispatcher see it and register its id (submitted) before we look.
  let arriving: Waiting[] = [];
  const sortArrivals = () => {
    const ready: Waiting[] = [];
    for (const w of arriving) {
      const waiters = unrecorded.get(receiptKey(w.queued.ref));
      if (waiters) waiters.push(w); else ready.push(w);
    }
    arriving = [];
    toBatch(ready);
  };

  // Receipts accepted but not yet committed, oldest first (a Set iterates in insertion order).
  const inProgress = new Set<Queued>();

  const recent = createRecentReceipts<ReceiptAnswer>();
  // Carriers whose unmatched receipts were logged (the first time only).
  const unmatchedLogged = new Set<string>();

  async function receive(receipt: Receipt, parked: ParkedReceipt): Promise<ReceiptAnswer> {
    const receivedAt = now();
    const carrier = receipt.carrier ?? DEFAULT_CARRIER;
    const extra: ParkedExtra = { recipient: receipt.recipient, otherIds: receipt.otherIds };
    let ref: SmscRef = { carrier, smscId: receipt.smscMessageId };
    if (receipt.otherIds?.length) {
      // An id with several readings: one this process has just submitted (its `sent` write pending) is the one;
      // otherwise it goes the one-receipt way, which applies it only when exactly one message matches.
      const mine = [receipt.smscMessageId, ...receipt.otherIds].find((smscId) => unrecorded.has(receiptKey({ carrier, smscId })));
      if (mine === undefined) return tracked({ ref, parked, receivedAt }, () => applyOne(ref, parked, receivedAt, extra));
      ref = { carrier, smscId: mine };
      extra.otherIds = undefined;
    }
    const queued = { ref, parked, receivedAt };
    return tracked(queued, async () => {
      const handled = await new Promise<boolean>((resolve, reject) => {
        if (arriving.length === 0) setImmediate(sortArrivals);
        arriving.push({ queued, resolve, reject });
      });
      return handled ? { matched: ref.smscId } : applyOne(ref, parked, receivedAt, extra);
    });
  }

  async function tracked<T>(queued: Queued, work: () => Promise<T>): Promise<T> {
    inProgress.add(queued);
    try {
      return await work();
    } finally {
      inProgress.delete(queued);
    }
  }

  /** Ends the messages sent through `carriers` more than `hours` (plus the grace) before `at`; returns how many. */
  async function expireRound(at: Date, hours: number, carriers: { in: string[] } | { notIn: string[] }): Promise<number> {
    const cutoff = new Date(at.getTime() - hours * 3_600_000 - EXPIRY_GRACE_MS);
    let total = 0;
    for (;;) {
      const ended = await db.transaction(async (tx) => {
        const due = await lockOverdue(tx, cutoff, EXPIRY_BATCH, carriers);
        for (const messageId of due) {
          const done = await endWithoutReceipt(tx, { messageId, status: 'expired', errorCode: 'no_receipt' }, deps.linksOf);
          if (done?.eventRecorded) recordedEvents += 1;
        }
        return due.length;
      });
      wakeIfRecorded();
      total += ended;
      if (ended < EXPIRY_BATCH) return total;
    }
  }

  return {
    /**
     * Applies a final receipt (or parks it), or records a non-final one, resolving after the commit. Answers which
     * of the id's readings matched a message, or a conflict, so the carrier learns its id forms. A copy the SMSC
     * resent while the first is being applied is answered with the first (recent-receipts.ts).
     */
    async onReceipt(receipt: Receipt): Promise<ReceiptAnswer> {
      // Not final (ENROUTE): the message stays `sent` and shows it as its intermediate receipt (intermediate.ts).
      const outcome = finalOutcome(receipt.state, receipt.errorCode);
      if (!outcome) return onIntermediate(receipt);
      return recent.once(receipt, () => receive(receipt, outcome));
    },
    /** Receipts the SMSC resent that were recognised in memory (answered without a second apply). */
    resentCopies: () => recent.copies(),
    /** How long the oldest receipt still being applied has waited (0 when none): GET /status reads it. */
    backlogAgeMs(): number {
      const [oldest] = inProgress;
      return oldest ? now().getTime() - oldest.receivedAt.getTime() : 0;
    },
    /** The dispatcher accepted these ids (on their carriers); their `sent` write is pending. */
    submitted(refs: SmscRef[]): void {
      for (const ref of refs) {
        const id = receiptKey(ref);
        if (!unrecorded.has(id)) unrecorded.set(id, []);
      }
    },
    /** The `sent` write for these ids committed (or was given up): their waiting receipts go, together. */
    recorded(refs: SmscRef[]): void {
      wakeIfRecorded();
      const ready: Waiting[] = [];
      for (const id of refs.map(receiptKey)) {
        ready.push(...(unrecorded.get(id) ?? []));
        unrecorded.delete(id);
        for (const resume of afterSentWrite.get(id) ?? []) resume();
        afterSentWrite.delete(id);
      }
      toBatch(ready);
    },
    resolveParked,
    linksOf: deps.linksOf,
    /** In the transaction that records resent messages as `sent`: their first copy's parked receipt (first-copy.ts). */
    settleResent: async (tx: Executor, messageIds: string[]): Promise<void> => {
      recordedEvents += await settleFirstCopies(tx, messageIds, deps.linksOf);
    },
    /**
     * The backstop: applies parked receipts a message or segment now holds, found by holder (README.md), and logs
     * the first unmatched receipt of each carrier with what to set.
     */
    async sweepParked(limit = SWEEP_BATCH): Promise<number> {
      const applied = await resolveRefs(await parkedWithHolder(db, limit));
      for (const o of await orphanStats(db, ORPHAN_AFTER_MS)) {
        if (unmatchedLogged.has(o.carrier)) continue;
        unmatchedLogged.add(o.carrier);
        deps.logger?.warn({ carrier: o.carrier, unmatched: o.count, smscId: o.sampleId },
          `carrier ${o.carrier}: receipts that match no message (e.g. id ${o.sampleId}); if it writes ids differently in submit_sm_resp and receipts, set submit_id_base and receipt_id_base for it`);
      }
      return applied;
    },
    /** Deletes parked receipts nothing has held for `olderThanMs` (PARKED_RECEIPT_MAX_AGE_HOURS). */
    purgeOrphans: (olderThanMs: number) => purgeOrphans(db, olderThanMs),
    /** Parked receipts nothing holds after a minute, by carrier (GET /metrics, GET /admin/carriers). */
    orphans: () => orphanStats(db, ORPHAN_AFTER_MS),
    /**
     * Every message ends in a final state: one sent more than the validity period (plus an hour's grace) ago
     * with no final receipt ends `expired` with error_code `no_receipt` and its message.dlr (endWithoutReceipt,
     * the same shape as a submit refusal). Returns how many.
     */
    async expireOverdue(at: Date = now()): Promise<number> {
      // Each carrier's messages by the validity period their submits carried; the rest by MESSAGE_VALIDITY_HOURS.
      const byHours = new Map<number, string[]>();
      for (const [carrier, hours] of Object.entries(deps.carrierValidityHours ?? {})) byHours.set(hours, [...(byHours.get(hours) ?? []), carrier]);
      const rounds: Array<{ hours: number; carriers: { in: string[] } | { notIn: string[] } }> = [
        ...[...byHours].map(([hours, carriers]) => ({ hours, carriers: { in: carriers } })),
        { hours: deps.validityHours ?? 48, carriers: { notIn: Object.keys(deps.carrierValidityHours ?? {}) } },
      ];
      let total = 0;
      for (const round of rounds) total += await expireRound(at, round.hours, round.carriers);
      return total;
    },
  };
}

export type ReceiptService = ReturnType<typeof createReceiptService>;

// The carriers view counts receipts parked without a message.
export { ORPHAN_AFTER_MS, orphanStats } from './parked.repo.ts';
