import type { Receipt, ReceiptAnswer } from '../../carrier/carrier.ts';
import type { Executor } from '../../platform/db/client.ts';
import { ORPHAN_AFTER_MS, orphanStats, parkedWithHolder, purgeOrphans, type SmscRef } from './parked.repo.ts';
import { settleFirstCopies } from './first-copy.ts';
import { createReceiptPipeline, type ReceiptPipelineDeps } from './receipt-pipeline.ts';
import { backlogAgeMs, onReceipt, recorded, submitted, type ReceiptDeps } from './on-receipt.ts';
import { resolveParked, resolveRefs } from './one-receipt.ts';
import { expireOverdue, type ExpiryDeps } from './expiry.ts';

const SWEEP_BATCH = 500;

export interface ReceiptServiceDeps extends ReceiptPipelineDeps, Omit<ExpiryDeps, 'events'> {
  now?: () => Date;
  logger?: { warn(obj: object, msg?: string): void };
}

/**
 * Delivery receipts from the carrier (README.md). A final receipt sets the message's status and delivery_receipt
 * once, and the message.dlr event is recorded in the same transaction (transactional outbox). `onReceipt` resolves
 * only after commit, because the carrier acknowledges the SMSC (deliver_sm_resp) when it does.
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
  // This process's receipt state (README.md): one service per process, built once by the composition root.
  const pipeline = createReceiptPipeline(deps);
  const receiptDeps: ReceiptDeps = { db, linksOf: deps.linksOf, logger: deps.logger, onFinal: deps.onFinal, now, pipeline };
  const expiryDeps: ExpiryDeps = {
    db, linksOf: deps.linksOf, events: pipeline.events, validityHours: deps.validityHours, carrierValidityHours: deps.carrierValidityHours,
  };
  // Carriers whose unmatched receipts were logged (the first time only).
  const unmatchedLogged = new Set<string>();

  return {
    /** onReceipt (on-receipt.ts): resolves after the commit that applied, parked or recorded the receipt. */
    onReceipt: (receipt: Receipt): Promise<ReceiptAnswer> => onReceipt(receiptDeps, receipt),
    /** Receipts the SMSC resent that were recognised in memory (answered without a second apply). */
    resentCopies: () => pipeline.recent.copies(),
    /** How long the oldest receipt still being applied has waited (0 when none): GET /status reads it. */
    backlogAgeMs: () => backlogAgeMs(pipeline, now()),
    /** The dispatcher accepted these ids (on their carriers); their `sent` write is pending. */
    submitted: (refs: SmscRef[]): void => submitted(pipeline, refs),
    /** The `sent` write for these ids committed (or was given up): their waiting receipts go, together. */
    recorded: (refs: SmscRef[]): void => recorded(pipeline, refs),
    /** Applies the parked receipts among these SMSC ids whose message is now known. Returns how many it applied. */
    resolveParked: (smscIds: string[]): Promise<number> => resolveParked(receiptDeps, smscIds),
    linksOf: deps.linksOf,
    /** In the transaction that records resent messages as `sent`: their first copy's parked receipt (first-copy.ts). */
    settleResent: async (tx: Executor, messageIds: string[]): Promise<void> => {
      pipeline.events.count += await settleFirstCopies(tx, messageIds, deps.linksOf);
    },
    /**
     * The backstop: applies parked receipts a message or segment now holds, found by holder (README.md), and logs
     * the first unmatched receipt of each carrier with what to set.
     */
    async sweepParked(limit = SWEEP_BATCH): Promise<number> {
      const applied = await resolveRefs(receiptDeps, await parkedWithHolder(db, limit));
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
    /** Ends messages past their validity period without a final receipt (expiry.ts). Returns how many. */
    expireOverdue: (at: Date = now()): Promise<number> => expireOverdue(expiryDeps, at),
  };
}

export type ReceiptService = ReturnType<typeof createReceiptService>;

// The carriers view counts receipts parked without a message.
export { ORPHAN_AFTER_MS, orphanStats } from './parked.repo.ts';
