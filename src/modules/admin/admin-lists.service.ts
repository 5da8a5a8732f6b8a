import type { Db } from '../../platform/db/client.ts';
import { normaliseAbn } from '../../common/abn.ts';
import { listKeys, listNumbers, listSenderIds, type Page } from './admin-lists.repo.ts';
import type { Scope } from '../../platform/permissions.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The operator's lists of keys, Sender IDs and numbers across accounts (the account list is in admin.service).
 * Filters narrow, never widen: an unknown account id simply lists nothing.
 */
export function createAdminLists(db: Db) {
  async function keys(query: Page & { account_id?: string; prefix?: string; status?: 'active' | 'revoked' }) {
    const { rows: found, total } = await listKeys(db, { accountId: query.account_id, prefix: query.prefix?.trim(), status: query.status }, query);
    return {
      keys: found.map((k) => ({
        id: k.id, account_id: k.accountId, name: k.name, prefix: k.prefix, scopes: k.scopes as Scope[],
        created_at: k.createdAt.toISOString(), last_used_at: iso(k.lastUsedAt), revoked_at: iso(k.revokedAt),
      })),
      total, limit: query.limit, offset: query.offset,
    };
  }

  async function senderIds(query: Page & { q?: string; abn?: string; account_id?: string }) {
    const { rows: found, total } = await listSenderIds(db, { q: query.q?.trim(), abn: query.abn ? normaliseAbn(query.abn) : undefined, accountId: query.account_id }, query);
    return {
      sender_ids: found.map((s) => ({ id: s.id, sender_id: s.senderId, abn: s.abn, account_id: s.accountId, created_at: s.createdAt.toISOString() })),
      total, limit: query.limit, offset: query.offset,
    };
  }

  async function numbers(query: Page & { q?: string; country?: 'AU' | 'NZ'; account_id?: string; status?: 'pool' | 'held' }) {
    // Numbers are stored E.164: match the digits typed, a local leading 0 dropped ("0412 345" finds +61412345…).
    const digits = query.q?.replace(/\D/g, '').replace(/^0/, '');
    const held = query.status === 'held' ? true : query.status === 'pool' ? false : undefined;
    const { rows: found, total } = await listNumbers(db, { q: digits || undefined, country: query.country, accountId: query.account_id, held }, query);
    return {
      numbers: found.map((n) => ({
        id: n.id, number: n.number, country: n.country, price_monthly: n.priceMonthly, account_id: n.accountId, label: n.label,
        assigned_at: iso(n.assignedAt), paid_until: iso(n.paidUntil), unpaid_since: iso(n.unpaidSince), created_at: n.createdAt.toISOString(),
      })),
      total, limit: query.limit, offset: query.offset,
    };
  }

  return { listKeys: keys, listSenderIds: senderIds, listNumbers: numbers };
}
