import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';

export interface LowBalanceNotice {
  accountId: string;
  businessName: string;
  balance: number;
  threshold: number;
  /** The account's owner; for a sub-account without users, its parent's owner (who manages it); null: nobody. */
  to: string | null;
}

/**
 * Takes (deletes) up to `limit` notices the accounts_low_balance trigger wrote (migration 0034), with whom to
 * email, in the caller's transaction: the mail it queues commits with the deletion, or neither does. Several
 * processes may run it at once (SKIP LOCKED). Service-wide, like the dispatcher's claims: no account id.
 */
export async function takeLowBalanceNotices(tx: Executor, limit: number): Promise<LowBalanceNotice[]> {
  const found = await rows<{ account_id: string; business_name: string; balance: number; threshold: number; to_address: string | null }>(tx, sql`
    with taken as (
      delete from low_balance_notices where id in (
        select id from low_balance_notices order by id limit ${limit} for update skip locked
      ) returning id, account_id, balance, threshold
    )
    select t.account_id, a.business_name, t.balance, t.threshold,
           coalesce(
             (select u.email from account_users u where u.account_id = a.id and u.role = 'owner' and u.removed_at is null),
             (select p.email from account_users p where a.managed_by_parent and p.account_id = a.parent_id and p.role = 'owner' and p.removed_at is null)
           ) as to_address
    from taken t join accounts a on a.id = t.account_id
    order by t.id`);
  return found.map((r) => ({ accountId: r.account_id, businessName: r.business_name, balance: r.balance, threshold: r.threshold, to: r.to_address }));
}
