// The parent/sub-account rule, written once. Every `/accounts` and `/account/{id}/…` route (and `/numbers/group`,
// `/report/group`) goes through these two functions before touching another account's data.
//
// Rules:
// - The caller needs `hierarchy_enabled` (set by the operator): otherwise 403 hierarchy_not_enabled, checked before
//   the id is even looked at, so a caller without the flag learns nothing about which ids exist.
// - One level deep: the target must be a direct child of the caller (`parent_id = caller`). Anything else — a
//   missing id, a stranger's child, the caller's own parent, a sibling, the caller itself — is 404 not_found,
//   never saying which.
// - A closed sub-account is gone for the API: 404 like a missing id (its history stays in the database and in the
//   parent's group reports). Only a caller that explicitly asks for history (`includeClosed: true`, e.g. a report
//   over a closed sub-account) gets it back.
// - `write: true` on a sub-account with `managed_by_parent = false` is 403 not_managed_by_parent. Reads, reports,
//   and credit allocation pass `write: false`.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.ts';
import { accounts } from '../../platform/db/schema/index.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { UUID_PATTERN } from '../../platform/ids.ts';
import type { AccountRow } from './accounts.repo.ts';

const uuidRe = new RegExp(UUID_PATTERN);

export function assertHierarchyEnabled(actor: Actor): void {
  if (!actor.account.hierarchyEnabled) {
    throw new AppError('hierarchy_not_enabled', 'Account hierarchy is not enabled for this account');
  }
}

/** Creating sub-accounts is for top-level accounts only (one level deep). */
export function assertCanParent(actor: Actor): void {
  assertHierarchyEnabled(actor);
  if (actor.account.parentId !== null) throw new AppError('not_a_parent', 'A sub-account cannot create sub-accounts');
}

export interface ManagedAccessOptions {
  /** a change to keys, users, numbers or settings: refused when the sub-account is not managed by the parent */
  write: boolean;
  /** let a closed sub-account through (history reads only) */
  includeClosed?: boolean;
  /** lock the row (FOR UPDATE) inside a transaction, so a concurrent close cannot slip in between */
  lock?: boolean;
}

/**
 * Loads a sub-account the actor may act on, or throws: 403 hierarchy_not_enabled (the actor lacks the flag),
 * 404 not_found (not its own child, closed, missing — never says which), 403 not_managed_by_parent (write and the
 * sub-account manages itself).
 */
export async function loadManagedAccount(
  db: Executor, actor: Actor, accountId: string, opts: ManagedAccessOptions,
): Promise<AccountRow> {
  assertHierarchyEnabled(actor);
  if (!uuidRe.test(accountId)) throw notFound('Account');
  const query = db.select().from(accounts).where(and(eq(accounts.id, accountId), eq(accounts.parentId, actor.accountId)));
  const [row] = opts.lock ? await query.for('update') : await query;
  if (!row) throw notFound('Account');
  if (row.accountStatus === 'closed' && !opts.includeClosed) throw notFound('Account');
  if (opts.write && !row.managedByParent) {
    throw new AppError('not_managed_by_parent', 'This sub-account manages itself; the parent may not change it');
  }
  return row;
}
