import type { ReceiptAnswer } from '../../carrier/carrier.ts';
import type { Db, Executor } from '../../platform/db/client.ts';
import { createBatcher } from '../../platform/jobs/batcher.ts';
import type { LinksOf } from '../../common/link-view.ts';
import { toMessageView } from '../messages/message-view.ts';
import type { MessageRow } from '../messages/messages.service.ts';
import { recordEvents } from '../webhooks/outbox.ts';
import type { FirstAttempts } from '../webhooks/first-attempt.ts';
import { statusFor } from './receipt-outcome.ts';
import { applyFinalBatch, receiptKey } from './receipts.repo.ts';
import type { ParkedReceipt, SmscRef } from './parked.repo.ts';
import { createRecentReceipts } from './recent-receipts.ts';

const RECEIPT_BATCH = 500;
// One receipt batch at a time, so receipts arriving during a commit make one large next batch (group commit) rather
// than several small ones: four at a time halved the batches and cost the pipeline 8% (decision 0014).
// One is safe because a batch never waits for a row lock (applyFinalBatch skips locked rows).
const RECEIPT_BATCHES_IN_FLIGHT = 1;

/** A final receipt on its way to the batch. */
export interface Queued { ref: SmscRef; parked: ParkedReceipt; receivedAt: Date }
/** A receipt waiting to be handed to the batch; `resolve` says whether the batch handled it. */
export interface Waiting { queued: Queued; resolve(handled: boolean): void; reject(err: unknown): void }

/**
 * Webhook events recorded since the last wake, and the wake (the webhook worker's signal). Counted in the
 * transaction and raised after its commit; a rolled-back count only costs one idle wake.
 */
export interface RecordedEvents { count: number; readonly onEvents?: () => void }

export function wakeIfRecorded(events: RecordedEvents): void {
  if (events.count === 0) return;
  events.count = 0;
  events.onEvents?.();
}

export interface BatchDeps {
  db: Db;
  /** The links of messages, for their message.dlr bodies (links.viewsOf). */
  linksOf: LinksOf;
  /** This process's webhook worker's first attempts, while it runs one (webhooks/first-attempt.ts), else null. */
  firstAttempts?: () => FirstAttempts | null;
  /** In the transaction that gives messages their outcome, with the updated rows (the SMPP server's receipts). */
  onFinal?: (tx: Executor, rows: MessageRow[]) => Promise<void>;
}

export interface ReceiptPipelineDeps extends BatchDeps {
  /** Called after a commit that recorded webhook events (wakes the webhook worker). */
  onEvents?: () => void;
}

/**
 * What the receipt path of one process holds between receipts (README.md): the batch, the ids whose `sent` write
 * is pending with the receipts waiting for it, the receipts of this event-loop turn, those not yet committed, and
 * the copies being recognised. Built once per process, with its receipt service (compose.ts), and passed to `onReceipt`.
 */
export interface ReceiptPipeline {
  batch: ReturnType<typeof createBatcher<Queued, boolean>>;
  /**
   * SMSC ids accepted in this process whose `sent` write has not committed yet (the dispatcher writes in
   * batches), with the receipts waiting for that commit rather than missing the batch and going the one-receipt
   * way (or being parked): with prompt receipts nearly every receipt would overtake the write. A hint only:
   * parking stays the one durable path for other processes and for a write that never commits. Keyed by
   * (carrier, id) (receiptKey): two carriers may hand out the same id, and a receipt from one must not wait for,
   * or be taken for, the other's write.
   */
  unrecorded: Map<string, Waiting[]>;
  /** Non-final receipts waiting, outside the batch, for the same `sent` writes (intermediate.ts). */
  afterSentWrite: Map<string, Array<() => void>>;
  /**
   * Receipts that arrived this event-loop turn. The submit_sm_resp may sit in the same socket read as its
   * receipt: one macrotask turn lets the dispatcher see it and register its id (submitted) before we look.
   */
  arriving: Waiting[];
  /** Receipts accepted but not yet committed, oldest first (a Set iterates in insertion order). */
  inProgress: Set<Queued>;
  recent: ReturnType<typeof createRecentReceipts<ReceiptAnswer>>;
  events: RecordedEvents;
}

export function createReceiptPipeline(deps: ReceiptPipelineDeps): ReceiptPipeline {
  const events: RecordedEvents = { count: 0, onEvents: deps.onEvents };
  return {
    batch: createBatcher<Queued, boolean>({
      maxSize: RECEIPT_BATCH,
      maxConcurrent: RECEIPT_BATCHES_IN_FLIGHT,
      run: (items) => applyBatch(deps, events, items),
    }),
    unrecorded: new Map(),
    afterSentWrite: new Map(),
    arriving: [],
    inProgress: new Set(),
    recent: createRecentReceipts<ReceiptAnswer>(),
    events,
  };
}

/**
 * One batch of final receipts: under load one transaction of a few statements serves many receipts instead of one
 * transaction of five statements each. Each caller's promise resolves only after the commit that covered its
 * receipt (deliver_sm_resp follows it). Answers, per receipt, whether the batch handled it: one it did not (unknown
 * id, a segment, a message whose row another transaction holds, one already final) or a batch that rolled back (a
 * lost connection) goes the one-receipt way, which waits for the lock on its own connection. The batch never waits
 * for a lock (it skips locked rows), so a receipt behind it waits only for that batch's few statements, never for
 * someone else's transaction (test/api/receipt-batches.test.ts).
 */
export async function applyBatch(deps: BatchDeps, events: RecordedEvents, items: Queued[]): Promise<boolean[]> {
  // The batch's webhooks start right after its commit, from this process, without a claim (decision 0074).
  const first = deps.firstAttempts?.() ?? undefined;
  try {
    const { handled, alreadyFinal } = await deps.db.transaction(async (tx) => {
      const result = await applyFinalBatch(tx, items.map((q) => ({
        ...q.ref, state: q.parked.state, status: statusFor(q.parked.state), errorCode: q.parked.errorCode, receivedAt: q.receivedAt,
      })));
      await deps.onFinal?.(tx, result.updated);
      const links = await deps.linksOf(tx, result.updated);
      events.count += await recordEvents(tx, 'message.dlr', result.updated.map((row) => ({
        accountId: row.accountId, messageId: row.id, body: toMessageView(row, links.get(row.id) ?? []),
      })), first);
      return result;
    });
    first?.committed();
    // One whose message already had its outcome goes the one-receipt way, which tells a repeat from a receipt
    // for a newer message with a reused id (applyReceipt). Both are rare.
    const finalAlready = new Set(alreadyFinal);
    return items.map((q) => handled.has(receiptKey(q.ref)) && !finalAlready.has(receiptKey(q.ref)));
  } catch {
    first?.cancel();
    return items.map(() => false);
  } finally {
    wakeIfRecorded(events);
  }
}

/** Resolves once this process's pending `sent` write for the id (if any) has committed or was given up. */
export async function sentWritten(pipeline: Pick<ReceiptPipeline, 'unrecorded' | 'afterSentWrite'>, ref: SmscRef): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  const key = receiptKey(ref);
  if (!pipeline.unrecorded.has(key)) return;
  await new Promise<void>((resolve) => pipeline.afterSentWrite.set(key, [...(pipeline.afterSentWrite.get(key) ?? []), resolve]));
}
