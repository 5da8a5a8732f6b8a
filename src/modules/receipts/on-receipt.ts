import { DEFAULT_CARRIER, type Receipt, type ReceiptAnswer } from '../../carrier/carrier.ts';
import { finalOutcome } from './receipt-outcome.ts';
import { receiptKey } from './receipts.repo.ts';
import type { ParkedExtra, ParkedReceipt, SmscRef } from './parked.repo.ts';
import { onIntermediate } from './intermediate.ts';
import { applyOne, type OneReceiptDeps } from './one-receipt.ts';
import { wakeIfRecorded, type Queued, type ReceiptPipeline, type Waiting } from './receipt-pipeline.ts';

// How a receipt from the carrier reaches the database (README.md): a final one goes to the batch, after waiting
// for this process's pending `sent` write of its id if there is one; what the batch does not handle goes the
// one-receipt way (one-receipt.ts). A non-final one goes its own way (intermediate.ts).

export interface ReceiptDeps extends OneReceiptDeps {
  now: () => Date;
  /** This process's receipt state (createReceiptPipeline, built once with its receipt service). */
  pipeline: ReceiptPipeline;
}

/**
 * Applies a final receipt (or parks it), or records a non-final one, resolving after the commit (the carrier then
 * acknowledges the SMSC). Answers which of the id's readings matched a message, or a conflict, so the carrier
 * learns its id forms. A copy the SMSC resent while the first is being applied is answered with the first
 * (recent-receipts.ts).
 */
export async function onReceipt(deps: ReceiptDeps, receipt: Receipt): Promise<ReceiptAnswer> {
  // Not final (ENROUTE): the message stays `sent` and shows it as its intermediate receipt (intermediate.ts).
  const outcome = finalOutcome(receipt.state, receipt.errorCode);
  if (!outcome) return onIntermediate(deps, receipt);
  return deps.pipeline.recent.once(receipt, () => receive(deps, receipt, outcome));
}

async function receive(deps: ReceiptDeps, receipt: Receipt, parked: ParkedReceipt): Promise<ReceiptAnswer> {
  const { pipeline } = deps;
  const receivedAt = deps.now();
  const carrier = receipt.carrier ?? DEFAULT_CARRIER;
  const extra: ParkedExtra = { recipient: receipt.recipient, otherIds: receipt.otherIds };
  let ref: SmscRef = { carrier, smscId: receipt.smscMessageId };
  if (receipt.otherIds?.length) {
    // An id with several readings: one this process has just submitted (its `sent` write pending) is the one;
    // otherwise it goes the one-receipt way, which applies it only when exactly one message matches.
    const mine = [receipt.smscMessageId, ...receipt.otherIds].find((smscId) => pipeline.unrecorded.has(receiptKey({ carrier, smscId })));
    if (mine === undefined) return tracked(pipeline, { ref, parked, receivedAt }, () => applyOne(deps, ref, parked, receivedAt, extra));
    ref = { carrier, smscId: mine };
    extra.otherIds = undefined;
  }
  const queued = { ref, parked, receivedAt };
  return tracked(pipeline, queued, async () => {
    const handled = await new Promise<boolean>((resolve, reject) => {
      if (pipeline.arriving.length === 0) setImmediate(sortArrivals, pipeline);
      pipeline.arriving.push({ queued, resolve, reject });
    });
    return handled ? { matched: ref.smscId } : applyOne(deps, ref, parked, receivedAt, extra);
  });
}

/** `work`, with its receipt counted as in progress until it settles (backlogAgeMs). */
async function tracked<T>(pipeline: ReceiptPipeline, queued: Queued, work: () => Promise<T>): Promise<T> {
  pipeline.inProgress.add(queued);
  try {
    return await work();
  } finally {
    pipeline.inProgress.delete(queued);
  }
}

/** This turn's arrivals: those whose id has a pending `sent` write wait for it; the rest go to the batch. */
function sortArrivals(pipeline: ReceiptPipeline): void {
  const ready: Waiting[] = [];
  for (const w of pipeline.arriving) {
    const waiters = pipeline.unrecorded.get(receiptKey(w.queued.ref));
    if (waiters) waiters.push(w); else ready.push(w);
  }
  pipeline.arriving = [];
  toBatch(pipeline, ready);
}

// Receipts that arrive together go to the batcher together (submitAll): with the batch slot free, one at a time
// would start a batch of one with the first and make the rest wait for it.
function toBatch(pipeline: ReceiptPipeline, ready: Waiting[]): void {
  if (ready.length === 0) return;
  pipeline.batch.submitAll(ready.map((w) => w.queued)).forEach((answer, i) => answer.then(ready[i]!.resolve, ready[i]!.reject));
}

/** The dispatcher accepted these ids (on their carriers); their `sent` write is pending. */
export function submitted(pipeline: ReceiptPipeline, refs: SmscRef[]): void {
  for (const ref of refs) {
    const id = receiptKey(ref);
    if (!pipeline.unrecorded.has(id)) pipeline.unrecorded.set(id, []);
  }
}

/** The `sent` write for these ids committed (or was given up): their waiting receipts go, together. */
export function recorded(pipeline: ReceiptPipeline, refs: SmscRef[]): void {
  wakeIfRecorded(pipeline.events);
  const ready: Waiting[] = [];
  for (const id of refs.map(receiptKey)) {
    ready.push(...(pipeline.unrecorded.get(id) ?? []));
    pipeline.unrecorded.delete(id);
    for (const resume of pipeline.afterSentWrite.get(id) ?? []) resume();
    pipeline.afterSentWrite.delete(id);
  }
  toBatch(pipeline, ready);
}

/** How long the oldest receipt still being applied has waited (0 when none). */
export function backlogAgeMs(pipeline: ReceiptPipeline, now: Date): number {
  const [oldest] = pipeline.inProgress;
  return oldest ? now.getTime() - oldest.receivedAt.getTime() : 0;
}
