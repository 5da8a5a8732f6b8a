// Credit moves between a parent and one of its sub-accounts. Invariants:
// - Both balance changes and a ledger row on each side commit in one transaction, or nothing does.
// - Neither balance goes below zero: the debit is changeCredits' conditional UPDATE, run after both rows are
//   locked, so concurrent sends (which lock only their own row) and transfers queue behind each other.
// - Locks are always taken in account-id order (lockPair), so allocate and recall racing on the same pair wait,
//   never deadlock.
import type { Tx } from '../../platform/db/client.ts';
import { changeCredits, type LedgerKind } from '../credits/credits.service.ts';
import { insufficientCredits } from '../credits/insufficient-credits.ts';

/**
 * Moves `amount` credits from one account to the other inside `tx`; the caller has locked both rows (lockPair).
 * Returns both new balances, or throws 402 when the source lacks the credits (the caller's transaction rolls back).
 */
export async function moveCredits(
  tx: Tx, move: { from: string; to: string; amount: number; kind: LedgerKind; fromBalance: () => Promise<number> },
): Promise<{ fromCredits: number; toCredits: number }> {
  const fromCredits = await changeCredits(tx, { accountId: move.from, delta: -move.amount, kind: move.kind, counterpartyId: move.to });
  if (fromCredits === null) throw insufficientCredits(move.amount, await move.fromBalance());
  const toCredits = await changeCredits(tx, { accountId: move.to, delta: move.amount, kind: move.kind, counterpartyId: move.from });
  if (toCredits === null) throw new Error('credit to an account failed');
  return { fromCredits, toCredits };
}
