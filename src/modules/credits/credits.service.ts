import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { balanceOf, mismatchedAccounts } from './ledger.repo.ts';

export function createCreditService(deps: { db: Db }) {
  return {
    /** The caller's own balance. */
    async balance(actor: Actor) {
      const credits = await balanceOf(deps.db, actor.accountId);
      if (credits === null) throw notFound('Account');
      return { credits };
    },
    /** How many accounts' balances the ledger does not explain (0 when every balance is its ledger's sum). */
    mismatchedAccounts: () => mismatchedAccounts(deps.db),
  };
}

export type CreditService = ReturnType<typeof createCreditService>;

// What other modules do to the ledger inside their own transaction: charge, refund, grant, read the balance.
export { balanceOf, changeCredits, type LedgerKind } from './ledger.repo.ts';
