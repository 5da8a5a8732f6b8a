import type { Receipt } from '../../carrier/carrier.ts';
import type { Db, Executor } from '../../platform/db/client.ts';
import { toMessageView } from '../messages/message-view.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { combinedState, isFinalState, receiptErrorCode, statusFor, type FinalState } from './receipt-outcome.ts';
import {
  applyFinal, deleteParked, findSegment, lockMessage, lockMessageBySmscId, lockParked, markSegment, parkedAmong,
  parkReceipt, purgeParked, segmentStates, type ParkedReceipt,
} from './receipts.repo.ts';

export interface ReceiptServiceDeps {
  db: Db;
  now?: () => Date;
}

/**
 * Delivery receipts from the carrier. A final receipt sets the message's status and delivery_receipt once, and
 * the message.dlr event is recorded in the same transaction (transactional outbox). The promise resolves only
 * after commit, because the carrier acknowledges the SMSC (deliver_sm_resp) when it does.
 *
 * A receipt can overtake its submit_sm_resp: nothing has the id yet, so it is parked in pending_receipts. Both
 * sides write, commit, then look for the other: the dispatcher checks for parked receipts after recording
 * `sent`, and a parked receipt is re-tried right after it is parked. Whichever order the two commits land in,
 * at least one side sees the other, and the row lock on the parked receipt makes sure only one applies it.
 */
export function createReceiptService(deps: ReceiptServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

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
      await recordEvent(tx, { accountId: updated.accountId, event: 'message.dlr', messageId: updated.id, body: toMessageView(updated) });
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
    }
    return applied;
  }

  return {
    async onReceipt(receipt: Receipt): Promise<void> {
      // ENROUTE and ACCEPTD say nothing a client can act on; the message stays `sent`.
      if (!isFinalState(receipt.state)) return;
      const parked: ParkedReceipt = { state: receipt.state, errorCode: receiptErrorCode(receipt.errorCode) };
      const receivedAt = now();
      const found = await db.transaction((tx) => apply(tx, receipt.smscMessageId, parked, receivedAt));
      if (found) return;
      await parkReceipt(db, receipt.smscMessageId, parked, receivedAt);
      await resolveParked([receipt.smscMessageId]);
    },
    resolveParked,
    purgeParked: (olderThanMs: number) => purgeParked(db, olderThanMs),
  };
}

export type ReceiptService = ReturnType<typeof createReceiptService>;
