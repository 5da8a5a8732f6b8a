import { and, asc, count, desc, eq, ilike, isNotNull, isNull, like, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.ts';
import { apiKeys, numbers, senderIds } from '../../platform/db/schema/index.ts';

// The operator's lists across every account (no tenant scoping: the operator token is the authority). Each takes
// optional filters and a page; all but numbers are newest first, numbers in number order. Each answers the page and
// how many match the filters (the total a reader pages through).

export interface Page { limit: number; offset: number }

/** `%` and `_` in what the operator typed match themselves. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const where = (conditions: Array<SQL | undefined>) => and(...conditions.filter((c): c is SQL => c !== undefined));

/** How many rows of a table match: one count beside the page, with the page's filters. */
async function total(db: Executor, table: typeof apiKeys | typeof senderIds | typeof numbers, filter: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(filter);
  return row?.n ?? 0;
}

export async function listKeys(db: Executor, filter: { accountId?: string; prefix?: string; status?: 'active' | 'revoked' }, page: Page) {
  const matching = where([
    filter.accountId ? eq(apiKeys.accountId, filter.accountId) : undefined,
    filter.prefix ? like(apiKeys.prefix, `${escapeLike(filter.prefix)}%`) : undefined,
    filter.status === 'active' ? isNull(apiKeys.revokedAt) : filter.status === 'revoked' ? isNotNull(apiKeys.revokedAt) : undefined,
  ]);
  const [found, n] = await Promise.all([
    db.select().from(apiKeys).where(matching).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(page.limit).offset(page.offset),
    total(db, apiKeys, matching),
  ]);
  return { rows: found, total: n };
}

export async function listSenderIds(db: Executor, filter: { q?: string; abn?: string; accountId?: string }, page: Page) {
  const matching = where([
    filter.q ? ilike(senderIds.senderId, `%${escapeLike(filter.q)}%`) : undefined,
    filter.abn ? eq(senderIds.abn, filter.abn) : undefined,
    filter.accountId ? eq(senderIds.accountId, filter.accountId) : undefined,
  ]);
  const [found, n] = await Promise.all([
    db.select().from(senderIds).where(matching).orderBy(desc(senderIds.createdAt), desc(senderIds.id)).limit(page.limit).offset(page.offset),
    total(db, senderIds, matching),
  ]);
  return { rows: found, total: n };
}

export async function listNumbers(db: Executor, filter: { q?: string; country?: string; accountId?: string; held?: boolean }, page: Page) {
  const matching = where([
    filter.q ? like(numbers.number, `%${escapeLike(filter.q)}%`) : undefined,
    filter.country ? eq(numbers.country, filter.country) : undefined,
    filter.accountId ? eq(numbers.accountId, filter.accountId) : undefined,
    filter.held === true ? isNotNull(numbers.accountId) : filter.held === false ? isNull(numbers.accountId) : undefined,
  ]);
  const [found, n] = await Promise.all([
    db.select().from(numbers).where(matching).orderBy(asc(numbers.number)).limit(page.limit).offset(page.offset),
    total(db, numbers, matching),
  ]);
  return { rows: found, total: n };
}
