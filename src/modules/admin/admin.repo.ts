import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { numbers } from '../../platform/db/schema/index.ts';
import { uuidv7 } from '../../platform/ids.ts';

// The operator's statements (no tenant scoping: the operator token is the authority).

/** Adds a number to the pool (or straight to an account); null when it is in the pool already. */
export async function insertNumber(db: Executor, input: { number: string; country: string; priceMonthly: number; accountId: string | null }) {
  const [row] = await db.insert(numbers).values({
    id: uuidv7(), ...input, assignedAt: input.accountId ? new Date() : null,
  }).onConflictDoNothing().returning();
  return row ?? null;
}

export async function activeKeyCount(db: Executor, accountId: string): Promise<number> {
  const [{ n } = { n: 0 }] = await rows<{ n: number }>(db, sql`
    select count(*)::int as n from api_keys where account_id = ${accountId} and revoked_at is null`);
  return n;
}

export interface AccountSearchRow {
  id: string; business_name: string; email: string | null; abn: string | null; account_status: string;
  hierarchy_enabled: boolean; credits: number; parent_id: string | null; created_at: Date | string;
}

/** Accounts newest first; `q` (when not empty) matches part of the name or email (any case), or the whole id. */
export async function searchAccounts(db: Executor, q: string, limit: number, offset: number): Promise<{ rows: AccountSearchRow[]; total: number }> {
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const matching = q === '' ? sql`true` : sql`(business_name ilike ${like} or email ilike ${like} or id::text = ${q})`;
  const [found, [counted]] = await Promise.all([
    rows<AccountSearchRow>(db, sql`
      select id, business_name, email, abn, account_status, hierarchy_enabled, credits, parent_id, created_at from accounts
      where ${matching} order by created_at desc, id desc limit ${limit} offset ${offset}`),
    rows<{ n: number }>(db, sql`select count(*)::int as n from accounts where ${matching}`),
  ]);
  return { rows: found, total: counted?.n ?? 0 };
}
