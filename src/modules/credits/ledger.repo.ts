import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';

/**
 * grant: new-account credits · admin: operator top-up · send/refund · allocate/recall: parent↔child transfers ·
 * close · number: a dedicated number's lease or 30-day renewal
 */
export type LedgerKind = 'grant' | 'admin' | 'send' | 'refund' | 'allocate' | 'recall' | 'close' | 'number';

export interface CreditChange {
  accountId: string;
  delta: number;
  kind: LedgerKind;
  messageId?: string | null;
  campaignId?: string | null;
  counterpartyId?: string | null;
}

/**
 * Applies a change to the balance and writes its ledger row in one statement. The UPDATE's own condition keeps
 * the balance at or above zero: concurrent debits queue on the row lock and each re-checks the latest balance.
 * Returns the new balance, or null when the account lacks the credits (nothing written).
 */
export async function changeCredits(db: Executor, change: CreditChange): Promise<number | null> {
  const [row] = await rows<{ credits: number }>(db, sql`
    with upd as (
      update accounts set credits = credits + ${change.delta}, updated_at = now()
      where id = ${change.accountId} and credits + ${change.delta} >= 0
      returning credits
    ), led as (
      insert into credit_ledger (id, account_id, kind, delta, balance_after, message_id, campaign_id, counterparty_id)
      select ${uuidv7()}, ${change.accountId}, ${change.kind}, ${change.delta}, credits,
             ${change.messageId ?? null}::uuid, ${change.campaignId ?? null}::uuid, ${change.counterpartyId ?? null}::uuid
      from upd
    )
    select credits from upd`);
  return row ? row.credits : null;
}

export async function balanceOf(db: Executor, accountId: string): Promise<number | null> {
  const [row] = await rows<{ credits: number }>(db, sql`select credits from accounts where id = ${accountId}`);
  return row ? row.credits : null;
}

/**
 * Accounts whose balance is not the sum of their ledger's changes: every change to `credits` writes its ledger row in
 * the same statement, so any such account means a write outside the ledger (a hand edit, a bug). One statement, so
 * one snapshot: a send committing meanwhile is either wholly in it or not at all. Reads the whole ledger once.
 */
export async function mismatchedAccounts(db: Executor): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`
    select count(*)::int as n
      from accounts a
      left join (select account_id, sum(delta)::bigint as total from credit_ledger group by account_id) l on l.account_id = a.id
     where a.credits <> coalesce(l.total, 0)`);
  return row!.n;
}
