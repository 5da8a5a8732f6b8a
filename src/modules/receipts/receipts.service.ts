import type { Receipt } from '../../carrier/carrier.ts';
import type { Db, Executor } from '../../platform/db/client.ts';
import { createBatcher } from '../../platform/jobs/batcher.ts';
import { toMessageView } from '../messages/message-view.ts';
import { recordEvent, recordEvents } from '../webhooks/outbox.ts';
import { combinedState, finalOutcome, statusFor, type FinalState } from './receipt-outcome.ts';
import {
  applyFinal, applyFinalBatch, deleteParked, findSegment, lockMessage, lockMessageBySmscId, lockParked, markSegment, parkedAmong,
  oldestParked, parkReceipt, purgeParked, segmentStates, type ParkedReceipt,
} from './receipts.repo.ts';

const RECEIPT_BATCH = 500;
const SWEEP_BATCH = 500;

export interface ReceiptServiceDeps {
  db: Db;
  now?: () => Date;
  /** Called after a commit that recorded webhook events (wakes the webhook worker). */
  onEvents?: () => void;
}

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

  /** Applies a final receipt; false when no message has this id yet. */
  async function apply(tx: Executor, smscId: string, r: ParkedReceipt, receivedAt: Date): Promise<boolean> {
    const segment = await findSegment(tx, smscId);
    let messageId: string;
    let state: FinalState;
    let errorCode = r.errorCode;
    if (segment) {
      const message = await lockMessage(tx, segment.messageId);
      if (!message) return true;
      if (!(await markSegment(tx, smscId, r.state))) return true;
      const combined = combinedState(await segmentStates(tx, message.id));
      if (combined === null) return true;
      messageId = message.id;
      state = combined;
      if (combined !== r.state) errorCode = null;
    } else {
      const message = await lockMessageBySmscId(tx, smscId);
      if (!message) return false;
      messageId = message.id;
      state = r.state;
    }
    const updated = await applyFinal(tx, messageId, { state, status: statusFor(state), receivedAt, errorCode });
    if (updated) {
      if (await recordEvent(tx, { accountId: updated.accountId, event: 'message.dlr', messageId: updated.id, body: toMessageView(updated) })) {
        recordedEvents += 1;
      }
    }
    return true;
  }

  /** Applies the parked receipts among these SMSC ids whose message is now known. Returns how many it applied. */
  async function resolveParked(smscIds: string[]): Promise<number> {
    let applied = 0;
    for (const smscId of await parkedAmong(db, smscIds)) {
      await db.transaction(async (tx) => {
        const parked = await lockParked(tx, smscId);
        if (!parked) return;
        if (await apply(tx, smscId, parked.receipt, parked.receivedAt)) {
          await deleteParked(tx, smscId);
          applied++;
        }
      });
      wakeIfRecorded();
    }
    return applied;
  }

  /** The one-receipt path: segments, unknown ids (parked), and the fallback when a batch fails. */
  async function applyOne(smscId: string, parked: ParkedReceipt, receivedAt: Date): Promise<void> {
    const found = await db.transaction((tx) => apply(tx, smscId, parked, receivedAt));
    wakeIfRecorded();
    if (found) return;
    await parkReceipt(db, smscId, parked, receivedAt);
    await resolveParked([smscId]);
  }

  // Receipts go through the write-behind batcher: under load one transaction of a few statements serves many
  // receipts instead of one transaction of five statements each. Each caller's promise resolves only after the
  // commit that covered its receipt (deliver_sm_resp follows it). A receipt the batch did not handle (unknown
  // id, a segment) or a batch that rolled back (a deadlock with another process, a lost connection) goes the
  // one-receipt way.
  type Queued = { smscId: string; parked: ParkedReceipt; receivedAt: Date };
  const batch = createBatcher<Queued, boolean>({
    maxSize: RECEIPT_BATCH,
    maxConcurrent: 1,
    run: async (items) => {
      try {
        const handled = await db.transaction(async (tx) => {
          const result = await applyFinalBatch(tx, items.map((q) => ({
            smscId: q.smscId, state: q.parked.state, status: statusFor(q.parked.state), errorCode: q.parked.errorCode, receivedAt: q.receivedAt,
          })));
          recordedEvents += await recordEvents(tx, 'message.dlr', result.updated.map((row) => ({ accountId: row.accountId, messageId: row.id, body: toMessageView(row) })));
          return result.handled;
        });
        return items.map((q) => handled.has(q.smscId));
      } catch {
        return items.map(() => false);
      } finally {
        wakeIfRecorded();
      }
    },
  });

  // Receipts accepted but not yet committed, oldest first (a Set iterates in insertion order).
  const inProgress = new Set<Queued>();

  return {
    async onReceipt(receipt: Receipt): Promise<void> {
      // ENROUTE says nothing a client can act on; the message stays `sent`.
      const outcome = finalOutcome(receipt.state, receipt.errorCode);
      if (!outcome) return;
      const parked: ParkedReceipt = outcome;
      const receivedAt = now();
      const queued = { smscId: receipt.smscMessageId, parked, receivedAt };
      inProgress.add(queued);
      try {
        if (!(await batch.submit(queued))) await applyOne(queued.smscId, parked, receivedAt);
      } finally {
        inProgress.delete(queued);
      }
    },
    /** How long the oldest receipt still being applied has waited (0 when none): GET /status reads it. */
    backlogAgeMs(): number {
      const [oldest] = inProgress;
      return oldest ? now().getTime() - oldest.receivedAt.getTime() : 0;
    },
    resolveParked,
    /** The backstop: retries the oldest parked receipts (README.md). Returns how many it applied. */
    sweepParked: async (limit = SWEEP_BATCH) => resolveParked(await oldestParked(db, limit)),
    purgeParked: (olderThanMs: number) => purgeParked(db, olderThanMs),
  };
}

export type ReceiptService = ReturnType<typeof createReceiptService>;
