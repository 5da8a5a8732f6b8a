import type { ReceiptAnswer } from '../../carrier/carrier.ts';
import type { Db, Executor } from '../../platform/db/client.ts';
import type { LinksOf } from '../../common/link-view.ts';
import { toMessageView } from '../messages/message-view.ts';
import type { MessageRow } from '../messages/messages.service.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { combinedState, statusFor, type FinalState } from './receipt-outcome.ts';
import { applyFinal, findHolder, lockMessage, markSegment, segmentStates } from './receipts.repo.ts';
import {
  deleteParked, lockParked, parkedAmong, parkReceipt, type ParkedExtra, type ParkedReceipt, type SmscRef,
} from './parked.repo.ts';
import { sameHandset } from './handset.ts';
import { wakeIfRecorded, type ReceiptPipeline } from './receipt-pipeline.ts';

// The one-receipt way (README.md): a receipt in a transaction of its own, which waits for its message's row lock on
// its own connection. It takes what the batch leaves (segments, unknown ids, ids with several readings, held rows,
// a failed batch's) and parks a receipt no message holds yet; parked receipts are applied from here too.

export interface OneReceiptDeps {
  db: Db;
  linksOf: LinksOf;
  logger?: { warn(obj: object, msg?: string): void };
  /** In the transaction that gives messages their outcome, with the updated rows (the SMPP server's receipts). */
  onFinal?: (tx: Executor, rows: MessageRow[]) => Promise<void>;
  /** Where the events it records are counted, for the wake after the commit (createReceiptPipeline). */
  pipeline: Pick<ReceiptPipeline, 'events'>;
}

// A receipt for a message that already has its outcome, about the same handset (or one the receipt does not
// name): a repeat. Nothing changes; it is logged. (One about another handset is parked instead: see applyReceipt.)
function alreadyFinal(deps: OneReceiptDeps, ref: SmscRef, messageId: string | null): void {
  deps.logger?.warn({ carrier: ref.carrier, smscId: ref.smscId, messageId }, 'receipt for a message already final; ignored');
}

/**
 * Applies a final receipt to the newest message or segment carrying the id on its carrier (findHolder); false
 * when none does yet. A holder that already has its outcome takes a receipt about its own handset as a repeat;
 * one about another handset is for a newer message the SMSC gave the id to again (a restart, a wrapping counter)
 * whose `sent` write is still pending: false, so it is parked and applied when that write commits.
 */
async function applyReceipt(
  deps: OneReceiptDeps, tx: Executor, ref: SmscRef, r: ParkedReceipt, receivedAt: Date, handset: string | null | undefined,
): Promise<boolean> {
  const holder = await findHolder(tx, ref.carrier, ref.smscId);
  if (!holder) return false;
  const message = await lockMessage(tx, holder.messageId);
  if (!message) return true;
  if (!holder.awaiting && handset && !sameHandset(handset, message.recipient)) return false;
  let state: FinalState = r.state;
  let errorCode = r.errorCode;
  if (holder.kind === 'segment') {
    if (!(await markSegment(tx, ref.carrier, ref.smscId, r.state))) { alreadyFinal(deps, ref, message.id); return true; }
    const combined = combinedState(await segmentStates(tx, message.id));
    if (combined === null) return true;
    state = combined;
    if (combined !== r.state) errorCode = null;
  }
  const updated = await applyFinal(tx, message.id, { state, status: statusFor(state), receivedAt, errorCode });
  if (!updated) { alreadyFinal(deps, ref, message.id); return true; }
  await deps.onFinal?.(tx, [updated]);
  const links = await deps.linksOf(tx, [updated]);
  if (await recordEvent(tx, { accountId: updated.accountId, event: 'message.dlr', messageId: updated.id, body: toMessageView(updated, links.get(updated.id) ?? []) })) {
    deps.pipeline.events.count += 1;
  }
  return true;
}

/**
 * Which of a receipt's readings (carrier/smpp/id-forms.ts) names its message: the one some message or segment
 * holds; of several, the one still awaiting its receipt; several awaiting is a conflict, and none is applied.
 */
async function chooseReading(tx: Executor, carrier: string, ids: string[]): Promise<string | 'conflict' | null> {
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

/** applyReceipt() under the reading that names the message: which one matched, or a conflict. */
async function applyReadings(
  deps: OneReceiptDeps, tx: Executor, carrier: string, ids: string[], r: ParkedReceipt, receivedAt: Date, handset: string | null | undefined,
): Promise<{ matched: string | null; conflict?: true }> {
  const id = await chooseReading(tx, carrier, ids);
  if (id === 'conflict') {
    deps.logger?.warn({ carrier, smscIds: ids }, 'receipt id matches several messages under its readings; not applied');
    return { matched: null, conflict: true };
  }
  if (id === null) return { matched: null };
  return (await applyReceipt(deps, tx, { carrier, smscId: id }, r, receivedAt, handset)) ? { matched: id } : { matched: null };
}

/** Applies these parked receipts where a message now holds their id (under any reading). Returns how many. */
export async function resolveRefs(deps: OneReceiptDeps, refs: SmscRef[]): Promise<number> {
  let applied = 0;
  for (const ref of refs) {
    await deps.db.transaction(async (tx) => {
      const parked = await lockParked(tx, ref);
      if (!parked) return;
      const result = await applyReadings(deps, tx, ref.carrier, [ref.smscId, ...parked.otherIds], parked.receipt, parked.receivedAt, parked.recipient);
      if (result.matched === null && !result.conflict) return;
      await deleteParked(tx, ref);
      applied++;
    });
    wakeIfRecorded(deps.pipeline.events);
  }
  return applied;
}

/** Applies the parked receipts among these SMSC ids whose message is now known. Returns how many it applied. */
export async function resolveParked(deps: OneReceiptDeps, smscIds: string[]): Promise<number> {
  return resolveRefs(deps, await parkedAmong(deps.db, smscIds));
}

/**
 * Applies one final receipt in a transaction of its own, or parks it when no message holds its id yet (and then
 * looks again, for a `sent` write that committed meanwhile: README.md, "One path for early receipts").
 */
export async function applyOne(deps: OneReceiptDeps, ref: SmscRef, parked: ParkedReceipt, receivedAt: Date, extra: ParkedExtra): Promise<ReceiptAnswer> {
  const ids = [ref.smscId, ...(extra.otherIds ?? [])];
  const result = await deps.db.transaction((tx) => applyReadings(deps, tx, ref.carrier, ids, parked, receivedAt, extra.recipient));
  wakeIfRecorded(deps.pipeline.events);
  if (result.matched !== null || result.conflict) return result;
  await parkReceipt(deps.db, ref, parked, receivedAt, extra);
  await resolveParked(deps, [ref.smscId]);
  return { matched: null };
}
