import type { Db, Executor } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { requireWithin } from '../../platform/permissions.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { revokeAllKeys } from '../keys/keys.service.ts';
import { normaliseAbn } from '../../common/abn.ts';
import {
  accountCounts, accountSenders, branchEmailTaken, closeAccountRow, findAccount, insertAccount, listChildren, lockAccount, lockPair,
  moveNumbersBetween, updateAccount, type AccountRow,
} from './accounts.repo.ts';
import { assertCanParent, assertHierarchyEnabled, loadManagedAccount } from './access.ts';
import { moveCredits } from './transfers.ts';
import { balanceOf } from '../credits/credits.service.ts';
import { readSettings, toSettingsView } from '../settings/account-settings.ts';
import { applySettings, settingsChanges } from '../settings/settings.service.ts';
import type { SettingsUpdate } from '../settings/settings.schemas.ts';
import type { CreateSubAccountInput } from './accounts.schemas.ts';
import { record } from '../../platform/audit/record.ts';
import type { Within } from '../../platform/http/idempotency.ts';
import { changedFields } from '../../platform/audit/redact.ts';

export interface PatchSubAccountInput extends SettingsUpdate {
  business_name?: string;
  email?: string | null;
  abn?: string | null;
  daily_limit?: number | null;
  managed_by_parent?: boolean;
  team_access_from_parent?: boolean;
  optout_exempt?: boolean;
  inherit_parent_senders?: boolean;
}

const emailRequired = () => new AppError('validation_failed', 'email is required when managed_by_parent is false', {
  details: [{ field: 'email', message: 'is required when managed_by_parent is false' }],
});
const emailTaken = () => new AppError('email_taken', 'An account in this group already uses that email');

/** The `account` object of GET /account/{id}: the document's fields plus the ones docs/api-contract.md adds. */
export async function accountDetail(db: Db, row: AccountRow) {
  const [counts, senders] = await Promise.all([accountCounts(db, row.id), accountSenders(db, row)]);
  return {
    id: row.id,
    business_name: row.businessName,
    credits: row.credits,
    account_status: row.accountStatus,
    daily_send_limit: row.dailyLimit,
    managed_by_parent: row.managedByParent,
    team_access_from_parent: row.teamAccessFromParent,
    user_count: counts.users,
    number_count: counts.numbers,
    email: row.email,
    parent_account_id: row.parentId,
    created_at: row.createdAt.toISOString(),
    hierarchy_enabled: row.hierarchyEnabled,
    optout_exempt: row.optoutExempt,
    inherit_parent_senders: row.inheritParentSenders,
    abn: row.abn,
    sending_number: senders.number,
    default_sender_id_value: senders.senderId,
    ...toSettingsView(readSettings(row.settings)),
  };
}

/** What the audit log shows of a sub-account's row (accounts.repo's AccountRow). */
function auditView(row: AccountRow) {
  return {
    business_name: row.businessName, email: row.email, abn: row.abn, daily_limit: row.dailyLimit, managed_by_parent: row.managedByParent,
    team_access_from_parent: row.teamAccessFromParent, optout_exempt: row.optoutExempt, inherit_parent_senders: row.inheritParentSenders,
    settings: row.settings,
  };
}

/** A credit move's answer (the route's TransferResult). */
export interface TransferOutcome { ok: boolean; direction: 'allocate' | 'recall'; amount: number; credits: number; parent_credits: number }

export function createAccountService(deps: {
  db: Db;
  /** Adds the sub-account's owner (every permission) and emails their invitation, in the creating transaction. */
  inviteOwner?: (tx: Executor, accountId: string, email: string) => Promise<void>;
}) {

  const { db } = deps;

  async function list(actor: Actor) {
    assertHierarchyEnabled(actor);
    // The calling account first, as the client libraries document, then its sub-accounts.
    const [self, children] = await Promise.all([findAccount(db, actor.accountId), listChildren(db, actor.accountId)]);
    const all = self ? [self, ...children] : children;
    return {
      accounts: all.map((c) => ({
        id: c.id, business_name: c.businessName, parent_account_id: c.parentId, created_at: c.createdAt.toISOString(),
        account_status: c.accountStatus, credits: c.credits,
      })),
    };
  }

  async function create(actor: Actor, input: CreateSubAccountInput) {
    assertCanParent(actor);
    const managed = input.managed_by_parent ?? true;
    const email = input.email?.trim() || null;
    if (!managed && email === null) throw emailRequired();
    const seed = input.seed_credits ?? 0;
    // Seeding moves credits: the route needs `manage`, the seed `billing` too (docs/permissions.md).
    if (seed > 0) requireWithin(actor, ['billing'], 'move credits to a new sub-account (seed_credits)');
    const created = await db.transaction(async (tx) => {
      // The parent's row lock serialises creates under one parent: the email check and the seed debit see each
      // other's results.
      const parent = await lockAccount(tx, actor.accountId);
      if (!parent) throw notFound('Account');
      if (email !== null && (await branchEmailTaken(tx, parent.id, email))) throw emailTaken();
      const child = await insertAccount(tx, {
        businessName: input.business_name.trim(), email, abn: input.abn ? normaliseAbn(input.abn) : parent.abn,
        parentId: parent.id, dailyLimit: input.daily_limit ?? null, managedByParent: managed,
        teamAccessFromParent: input.team_access_from_parent ?? false, optoutExempt: input.optout_exempt ?? false,
        inheritParentSenders: input.inherit_parent_senders ?? false,
      });
      if (seed > 0) {
        await moveCredits(tx, { from: parent.id, to: child.id, amount: seed, kind: 'allocate', fromBalance: async () => parent.credits });
      }
      // A customer of an agency texts where the agency does, unless told otherwise.
      await applySettings(tx, child.id, { country: input.country ?? actor.account.settings.country });
      await record(tx, {
        accountId: parent.id, actor, action: 'sub_account.created', target: { type: 'account', id: child.id },
        after: { ...auditView(child), seed_credits: seed },
      });
      // The email is the sub-account's owner: a user with every permission, invited by email like any owner.
      if (email !== null) await deps.inviteOwner?.(tx, child.id, email);
      return { account_id: child.id, id: child.id, email: child.email };
    });
    // Beside the document's ids, the account as GET /account/{id} shows it: some client libraries read `account.id`.
    const row = await findAccount(db, created.id);
    if (!row) throw notFound('Account');
    return { ...created, account: await accountDetail(db, row) };
  }

  async function get(actor: Actor, accountId: string) {
    const row = await loadManagedAccount(db, actor, accountId, { write: false });
    return { account: await accountDetail(db, row) };
  }

  async function patch(actor: Actor, accountId: string, input: PatchSubAccountInput) {
    const row = await db.transaction(async (tx) => {
      const current = await loadManagedAccount(tx, actor, accountId, { write: true, lock: true });
      const changes: Parameters<typeof updateAccount>[2] = {};
      if (input.business_name !== undefined) changes.businessName = input.business_name.trim();
      if (input.email !== undefined) changes.email = input.email?.trim() || null;
      // An ABN the parent declares grants no Sender ID (only the operator's does): it is not verified.
      if (input.abn !== undefined) {
        changes.abn = input.abn === null ? null : normaliseAbn(input.abn);
        changes.abnVerified = false;
      }
      if (input.daily_limit !== undefined) changes.dailyLimit = input.daily_limit;
      if (input.managed_by_parent !== undefined) changes.managedByParent = input.managed_by_parent;
      if (input.team_access_from_parent !== undefined) changes.teamAccessFromParent = input.team_access_from_parent;
      if (input.optout_exempt !== undefined) changes.optoutExempt = input.optout_exempt;
      if (input.inherit_parent_senders !== undefined) changes.inheritParentSenders = input.inherit_parent_senders;
      const email = changes.email !== undefined ? changes.email : current.email;
      const managed = changes.managedByParent ?? current.managedByParent;
      if (!managed && email === null) throw emailRequired();
      if (changes.email && (await branchEmailTaken(tx, actor.accountId, changes.email, current.id))) throw emailTaken();
      // Quiet hours, time zone and link tracking: the PUT /settings rules, merged first so the row read back has them.
      const settings = settingsChanges(input);
      if (Object.keys(settings).length > 0) await applySettings(tx, current.id, settings);
      const updated = (await updateAccount(tx, current.id, changes))!;
      await record(tx, {
        accountId: actor.accountId, actor, action: 'sub_account.updated', target: { type: 'account', id: current.id },
        ...changedFields(auditView(current), auditView(updated)),
      });
      return updated;
    });
    return { ok: true, account: await accountDetail(db, row) };
  }

  /** Closes a sub-account: status closed, keys revoked, credits and numbers back to the parent, history kept. */
  async function close(actor: Actor, accountId: string) {
    return db.transaction(async (tx) => {
      await loadManagedAccount(tx, actor, accountId, { write: true });
      await lockPair(tx, actor.accountId, accountId);
      // Re-read under the lock: a concurrent close or transfer may have run since the check above.
      const child = await findAccount(tx, accountId);
      if (!child || child.accountStatus === 'closed') throw notFound('Account');
      const returned = child.credits;
      if (returned > 0) {
        await moveCredits(tx, { from: child.id, to: actor.accountId, amount: returned, kind: 'close', fromBalance: async () => child.credits });
      }
      await revokeAllKeys(tx, child.id);
      await moveNumbersBetween(tx, child.id, actor.accountId);
      await closeAccountRow(tx, child.id);
      await record(tx, {
        accountId: actor.accountId, actor, action: 'sub_account.closed', target: { type: 'account', id: child.id },
        before: { account_status: child.accountStatus, credits: returned }, after: { account_status: 'closed', credits: 0, credits_returned: returned },
      });
      // Tasman closes at once (history kept): nothing is scheduled for later deletion.
      return { ok: true, credits_returned: returned, scheduled_for_deletion: false };
    });
  }

  async function balance(actor: Actor, accountId: string) {
    const row = await loadManagedAccount(db, actor, accountId, { write: false });
    return { credits: row.credits };
  }

  /** allocate: parent → sub-account (allowed even when the sub-account manages itself); recall: back. */
  async function transfer(
    actor: Actor, accountId: string, amount: number, direction: 'allocate' | 'recall', within?: Within<TransferOutcome>,
  ): Promise<TransferOutcome> {
    return db.transaction(async (tx) => {
      await loadManagedAccount(tx, actor, accountId, { write: direction === 'recall' });
      await lockPair(tx, actor.accountId, accountId);
      const child = await findAccount(tx, accountId);
      if (!child || child.accountStatus === 'closed') throw notFound('Account');
      const [from, to] = direction === 'allocate' ? [actor.accountId, accountId] : [accountId, actor.accountId];
      const moved = await moveCredits(tx, { from, to, amount, kind: direction, fromBalance: async () => (await balanceOf(tx, from)) ?? 0 });
      const [credits, parentCredits] = direction === 'allocate' ? [moved.toCredits, moved.fromCredits] : [moved.fromCredits, moved.toCredits];
      await record(tx, {
        accountId: actor.accountId, actor, action: direction === 'allocate' ? 'credits.allocated' : 'credits.recalled',
        target: { type: 'account', id: accountId },
        before: { credits: credits + (direction === 'allocate' ? -amount : amount), parent_credits: parentCredits + (direction === 'allocate' ? amount : -amount) },
        after: { credits, parent_credits: parentCredits, amount },
      });
      const result = { ok: true, direction, amount, credits, parent_credits: parentCredits };
      await within?.(tx, result);
      return result;
    });
  }

  return { list, create, get, patch, close, balance, transfer };
}

export type AccountService = ReturnType<typeof createAccountService>;

// The account rows other modules read or change inside their own transaction (the operator console, the team page).
export { findAccount, insertAccount, updateAccount } from './accounts.repo.ts';
