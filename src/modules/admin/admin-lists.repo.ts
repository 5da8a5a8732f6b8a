import { and, asc, desc, eq, ilike, isNotNull, isNull, like, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.ts';
import { apiKeys, numbers, senderIds } from '../../platform/db/schema/index.ts';

// The operator's lists across every account (no tenant scoping: the operator token is the authority). Each takes
// optional filters and a page; all but numbers are newest first, numbers in number order.

export interface Page { limit: number; offset: number }

/** `%` and `_` in what the operator typed match themselves. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const where = (conditions: Array<SQL | undefined>) => and(...conditions.filter((c): c is SQL => c !== undefined));

export function listKeys(db: Executor, filter: { accountId?: string; prefix?: string; status?: 'active' | 'revoked' }, page: Page) {
  return db.select().from(apiKeys).where(where([
    filter.accountId ? eq(apiKeys.accountId, filter.accountId) : undefined,
    filter.prefix ? like(apiKeys.prefix, `${escapeLike(filter.prefix)}%`) : undefined,
    filter.status === 'active' ? isNull(apiKeys.revokedAt) : filter.status === 'revoked' ? isNotNull(apiKeys.revokedAt) : undefined,
  ])).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(page.limit).offset(page.offset);
}

export function listSenderIds(db: Executor, filter: { q?: string; abn?: string; accountId?: string }, page: Page) {
  return db.select().from(senderIds).where(where([
    filter.q ? ilike(senderIds.senderId, `%${escapeLike(filter.q)}%`) : undefined,
    filter.abn ? eq(senderIds.abn, filter.abn) : undefined,
    filter.accountId ? eq(senderIds.accountId, filter.accountId) : undefined,
  ])).orderBy(desc(senderIds.createdAt), desc(senderIds.id)).limit(page.limit).offset(page.offset);
}

export function listNumbers(db: Executor, filter: { q?: string; country?: string; accountId?: string; held?: boolean }, page: Page) {
  return db.select().from(numbers).where(where([
    filter.q ? like(numbers.number, `%${escapeLike(filter.q)}%`) : undefined,
    filter.country ? eq(numbers.country, filter.country) : undefined,
    filter.accountId ? eq(numbers.accountId, filter.accountId) : undefined,
    filter.held === true ? isNotNull(numbers.accountId) : filter.held === false ? isNull(numbers.accountId) : undefined,
  ])).orderBy(asc(numbers.number)).limit(page.limit).offset(page.offset);
}
