// Dedicated numbers. A number has exactly one holder at a time: `numbers.account_id` (null while in the operator's
// pool), under a unique index on the number. Inbound routing reads that column, so every move here is a single
// conditional UPDATE on it and can never leave a number with two holders.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { numbers } from '../../platform/db/schema/index.ts';

export type NumberRow = typeof numbers.$inferSelect;

export async function listNumbers(db: Executor, accountId: string): Promise<NumberRow[]> {
  return db.select().from(numbers).where(eq(numbers.accountId, accountId)).orderBy(asc(numbers.number));
}

export interface GroupNumberRow extends NumberRow {
  businessName: string;
}

/** Numbers held by the parent and its open sub-accounts. */
export async function listGroupNumbers(db: Executor, parentId: string): Promise<GroupNumberRow[]> {
  const list = await rows<{
    id: string; number: string; country: string; price_monthly: string | number; account_id: string;
    created_at: Date | string; assigned_at: Date | string | null; business_name: string; label: string | null;
    paid_until: Date | string | null; unpaid_since: Date | string | null;
  }>(db, sql`
    select n.id, n.number, n.country, n.price_monthly, n.account_id, n.created_at, n.assigned_at, a.business_name,
           n.label, n.paid_until, n.unpaid_since
    from numbers n join accounts a on a.id = n.account_id
    where a.id = ${parentId} or (a.parent_id = ${parentId} and a.account_status <> 'closed')
    order by n.number`);
  return list.map((r) => ({
    id: r.id, number: r.number, country: r.country, priceMonthly: Number(r.price_monthly), accountId: r.account_id,
    createdAt: new Date(r.created_at), assignedAt: r.assigned_at === null ? null : new Date(r.assigned_at),
    businessName: r.business_name, label: r.label,
    paidUntil: r.paid_until === null ? null : new Date(r.paid_until),
    unpaidSince: r.unpaid_since === null ? null : new Date(r.unpaid_since),
  }));
}

export async function listAvailable(
  db: Executor, filter: { country?: string; limit: number; offset: number },
): Promise<NumberRow[]> {
  const where = filter.country ? and(isNull(numbers.accountId), eq(numbers.country, filter.country)) : isNull(numbers.accountId);
  return db.select().from(numbers).where(where)
    .orderBy(asc(numbers.country), asc(numbers.number)).limit(filter.limit).offset(filter.offset);
}

/**
 * Leases one pool number to the account: the given number, or the first free one (of the country, if given).
 * SKIP LOCKED lets concurrent purchases take different numbers instead of queueing on the same one.
 */
export async function leaseFromPool(
  db: Executor, accountId: string, want: { number?: string; country?: string; label?: string | null; paidUntil: Date | null },
): Promise<NumberRow | null> {
  const [row] = await rows<{ id: string }>(db, sql`
    update numbers set account_id = ${accountId}, assigned_at = now(), label = ${want.label ?? null},
      paid_until = ${want.paidUntil}, unpaid_since = null
    where id = (
      select id from numbers
      where account_id is null
        ${want.number ? sql`and number = ${want.number}` : sql``}
        ${want.country ? sql`and country = ${want.country}` : sql``}
      order by country, number limit 1 for update skip locked
    ) and account_id is null
    returning id`);
  if (!row) return null;
  const [leased] = await db.select().from(numbers).where(eq(numbers.id, row.id));
  return leased ?? null;
}

/** Moves the listed numbers from one holder to another; returns the numbers moved (those `from` held). */
export async function moveNumbers(db: Executor, from: string, to: string, list: string[]): Promise<string[]> {
  if (list.length === 0) return [];
  const moved = await db.update(numbers).set({ accountId: to, assignedAt: new Date() })
    .where(and(eq(numbers.accountId, from), inArray(numbers.number, list)))
    .returning({ number: numbers.number });
  return moved.map((m) => m.number);
}

/** Every number `from` holds goes to `to` (a closed sub-account's numbers back to its parent). */
export async function heldBy(db: Executor, accountId: string, list: string[]): Promise<string[]> {
  if (list.length === 0) return [];
  const found = await db.select({ number: numbers.number }).from(numbers)
    .where(and(eq(numbers.accountId, accountId), inArray(numbers.number, list)));
  return found.map((f) => f.number);
}

/**
 * Locks the family's top account (the parent, or the account itself) so that purchases anywhere in one family
 * queue there and the cap cannot be passed by racing, and returns the buyer's balance, the family's cap (the top
 * account's max_numbers; null: the service default), the buyer's own cap, and the numbers held by the family and by
 * the buyer. A parent and all its sub-accounts share one cap: assigning a number to a sub-account frees nothing.
 */
export async function lockForPurchase(db: Executor, accountId: string) {
  const [row] = await rows<{ credits: number; max_numbers: number | null; family_id: string; family_max: number | null }>(db, sql`
    select a.credits, a.max_numbers, f.id as family_id, f.max_numbers as family_max
    from accounts a join accounts f on f.id = coalesce(a.parent_id, a.id) where a.id = ${accountId}`);
  if (row) await db.execute(sql`select 1 from accounts where id = ${row.family_id} for update`);
  const [count] = await rows<{ family: number; own: number }>(db, sql`
    select count(*)::int as family, count(*) filter (where n.account_id = ${accountId})::int as own
    from numbers n join accounts a on a.id = n.account_id
    where a.id = ${row?.family_id ?? accountId} or a.parent_id = ${row?.family_id ?? accountId}`);
  return {
    credits: row?.credits ?? 0, maxNumbers: row?.max_numbers ?? null, familyMaxNumbers: row?.family_max ?? null,
    held: Number(count?.own ?? 0), familyHeld: Number(count?.family ?? 0),
  };
}

export type DueNumber = { id: string; number: string; accountId: string; priceMonthly: number; paidUntil: Date; unpaidSince: Date | null };

/**
 * Rented numbers whose period has ended, oldest first, locked for this transaction (SKIP LOCKED: workers share),
 * leaving out `skip` (numbers this run already tried and left in their grace).
 */
export async function claimDueNumbers(db: Executor, limit: number, skip: string[]): Promise<DueNumber[]> {
  const found = await rows<{ id: string; number: string; account_id: string; price_monthly: string | number; paid_until: Date | string; unpaid_since: Date | string | null }>(db, sql`
    select id, number, account_id, price_monthly, paid_until, unpaid_since from numbers
    where account_id is not null and paid_until <= now()
      ${skip.length > 0 ? sql`and id not in (${sql.join(skip.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``}
    order by paid_until limit ${limit} for update skip locked`);
  return found.map((r) => ({
    id: r.id, number: r.number, accountId: r.account_id, priceMonthly: Number(r.price_monthly),
    paidUntil: new Date(r.paid_until), unpaidSince: r.unpaid_since === null ? null : new Date(r.unpaid_since),
  }));
}

/** Paid: the next period starts where the last one ended (a late payment does not move the renewal date). */
export async function markRenewed(db: Executor, id: string, paidUntil: Date): Promise<void> {
  await db.execute(sql`update numbers set paid_until = ${paidUntil}, unpaid_since = null where id = ${id}`);
}

export async function markUnpaid(db: Executor, id: string, since: Date): Promise<void> {
  await db.execute(sql`update numbers set unpaid_since = ${since} where id = ${id}`);
}

/** Back to the operator's pool: no holder, no label, no rental. */
export async function releaseToPool(db: Executor, id: string): Promise<void> {
  await db.execute(sql`
    update numbers set account_id = null, assigned_at = null, label = null, paid_until = null, unpaid_since = null
    where id = ${id}`);
}
