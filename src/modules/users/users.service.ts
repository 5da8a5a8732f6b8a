import type { Db, Executor } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { permissionsOf } from '../../platform/permissions.ts';
import { findAccount, updateAccount } from '../accounts/accounts.service.ts';
import { loadManagedAccount } from '../accounts/access.ts';
import { cutKeysOfUser } from '../keys/keys.service.ts';
import { record } from '../../platform/audit/record.ts';
import { changedFields } from '../../platform/audit/redact.ts';
import { hasOwner, insertUser, listUsers, lockTeam, lockUser, removeUser, updateUser, type UserRow } from './users.repo.ts';
import { assertMayChange, assertMayGrant, memberFields, settle, type MemberState } from './team-rules.ts';

export interface InviteInput {
  email: string;
  name?: string | null;
  can_send?: boolean;
  can_billing?: boolean;
  role?: 'admin' | 'member';
}

export interface MemberUpdateInput {
  role?: 'admin' | 'member';
  can_send?: boolean;
  can_billing?: boolean;
}

/**
 * A change to a team, recorded in the audit log inside the change's own transaction. `before` is null for an
 * invitation and `after` null for a removal; the member's email goes with both.
 */
interface TeamChange {
  action: 'team.member_invited' | 'team.member_removed' | 'team.member_changed' | 'team.ownership_transferred';
  accountId: string;
  actor: Actor;
  memberId: string;
  email: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const audit = (tx: Executor, c: TeamChange) => record(tx, {
  accountId: c.accountId, actor: c.actor, action: c.action, target: { type: 'user', id: c.memberId },
  before: c.before && { email: c.email, ...c.before }, after: c.after && { email: c.email, ...c.after },
});

const view = (u: UserRow, source = u.source) => ({
  id: u.id, email: u.email, name: u.name, can_send: u.canSend, can_billing: u.canBilling, role: u.role, status: u.status, source,
  two_factor: u.totpEnabledAt !== null, created_at: u.createdAt.toISOString(), invited_at: u.createdAt.toISOString(),
});

// Team members of an account and their roles (docs/permissions.md). A sub-account's team is its direct members
// plus, when team_access_from_parent is on, the parent's members (listed with source "parent", with their role in
// the parent). Every change is recorded in the audit log in its own transaction.
export function createUserService(deps: { db: Db; invite: (db: Executor, accountId: string, userId: string) => Promise<string>; emailSent: boolean }) {
  const { db } = deps;

  /**
   * Adds the member and their invite link in one transaction. An account's first user becomes its owner (a
   * sub-account's first, say), which only a caller holding every other permission can make.
   */
  async function add(actor: Actor, accountId: string, input: InviteInput) {
    return db.transaction(async (tx) => {
      await lockTeam(tx, accountId);
      const first = !(await hasOwner(tx, accountId));
      const state = settle(first ? 'owner' : input.role ?? 'member', first ? {} : input);
      assertMayGrant(actor, state);
      const user = await insertUser(tx, accountId, { email: input.email.trim(), name: input.name?.trim() || null, ...state });
      if (!user) throw new AppError('email_taken', 'This account already has a user with that email');
      const inviteLink = await deps.invite(tx, accountId, user.id);
      await audit(tx, { action: 'team.member_invited', accountId, actor, memberId: user.id, email: user.email, before: null, after: memberFields(user) });
      return { success: true, user: view(user), email_sent: deps.emailSent, invite_link: inviteLink };
    });
  }

  async function drop(actor: Actor, accountId: string, memberId: string) {
    return db.transaction(async (tx) => {
      await lockTeam(tx, accountId);
      const target = await lockUser(tx, accountId, memberId);
      if (!target) throw notFound('User');
      assertMayChange(actor, target, 'remove');
      await removeUser(tx, accountId, memberId);
      // Their sessions end on their next request (the session look-up skips removed users); their keys end now.
      const keys = await cutKeysOfUser(tx, memberId, []);
      await audit(tx, {
        action: 'team.member_removed', accountId, actor, memberId, email: target.email,
        before: memberFields(target), after: keys.revoked > 0 ? { keys_revoked: keys.revoked } : null,
      });
      return { ok: true, keys_revoked: keys.revoked };
    });
  }

  /** Changes a member's role or flags; the keys that belong to them are cut down to what they hold now, at once. */
  async function change(actor: Actor, accountId: string, memberId: string, input: MemberUpdateInput) {
    return db.transaction(async (tx) => {
      await lockTeam(tx, accountId);
      const target = await lockUser(tx, accountId, memberId);
      if (!target) throw notFound('User');
      assertMayChange(actor, target, 'change');
      const next: MemberState = settle(input.role ?? target.role, input, target);
      assertMayGrant(actor, next);
      const updated = await updateUser(tx, accountId, memberId, next);
      const keys = await cutKeysOfUser(tx, memberId, permissionsOf(next));
      await audit(tx, {
        action: 'team.member_changed', accountId, actor, memberId, email: target.email,
        before: memberFields(target), after: { ...memberFields(next), keys_revoked: keys.revoked, keys_narrowed: keys.narrowed },
      });
      return { user: view(updated), keys_revoked: keys.revoked, keys_narrowed: keys.narrowed };
    });
  }

  /** The owner hands the account to an admin and becomes an admin: always exactly one owner. */
  async function transferOwnership(actor: Actor, memberId: string) {
    const accountId = actor.accountId;
    return db.transaction(async (tx) => {
      await lockTeam(tx, accountId);
      const me = actor.user ? await lockUser(tx, accountId, actor.user.id) : null;
      if (!me || me.role !== 'owner') throw new AppError('permission_denied', 'Only the account\'s owner can hand the account over');
      if (memberId === me.id) throw new AppError('forbidden', 'You are the owner already');
      const target = await lockUser(tx, accountId, memberId);
      if (!target) throw notFound('User');
      if (target.role !== 'admin') throw new AppError('conflict', 'Ownership goes only to an admin: make them an admin first');
      const previous = await updateUser(tx, accountId, me.id, settle('admin', {}));
      const owner = await updateUser(tx, accountId, target.id, settle('owner', {}));
      await audit(tx, {
        action: 'team.ownership_transferred', accountId, actor, memberId: target.id, email: target.email,
        before: { owner: me.id, owner_email: me.email }, after: { owner: owner.id, owner_email: owner.email },
      });
      return { owner: view(owner), previous_owner: view(previous) };
    });
  }

  async function list(actor: Actor, accountId: string) {
    await loadManagedAccount(db, actor, accountId, { write: false });
    return { users: (await listUsers(db, accountId)).map((u) => view(u)) };
  }

  /** The member is added at once and emailed the link (`email_sent` true with SMTP_URL; else the outbox keeps it). */
  async function invite(actor: Actor, accountId: string, input: InviteInput) {
    await loadManagedAccount(db, actor, accountId, { write: true });
    return add(actor, accountId, input);
  }

  async function remove(actor: Actor, accountId: string, memberId: string) {
    await loadManagedAccount(db, actor, accountId, { write: true });
    return drop(actor, accountId, memberId);
  }

  /** GET /team: the caller's own team, with the parent's members when the caller inherits its parent's team. */
  async function team(actor: Actor) {
    const own = (await listUsers(db, actor.accountId)).map((u) => view(u));
    const me = await findAccount(db, actor.accountId);
    if (!me?.parentId || !me.teamAccessFromParent) return { users: own };
    const inherited = (await listUsers(db, me.parentId)).map((u) => view(u, 'parent'));
    return { users: [...own, ...inherited] };
  }

  async function access(actor: Actor, accountId: string) {
    const row = await loadManagedAccount(db, actor, accountId, { write: false });
    const [direct, parentTeam] = await Promise.all([listUsers(db, accountId), listUsers(db, actor.accountId)]);
    return {
      managed_by_parent: row.managedByParent,
      team_access_from_parent: row.teamAccessFromParent,
      direct_team: direct.map((u) => view(u)),
      eligible_parent_team: parentTeam.map((u) => view(u, 'parent')),
    };
  }

  /**
   * Handing the sub-account over (managed_by_parent false) is one-way for the parent: afterwards this, like every
   * other change, is 403 not_managed_by_parent.
   */
  async function setAccess(actor: Actor, accountId: string, input: { managed_by_parent?: boolean; team_access_from_parent?: boolean }) {
    await db.transaction(async (tx) => {
      const row = await loadManagedAccount(tx, actor, accountId, { write: true, lock: true });
      const before = { managed_by_parent: row.managedByParent, team_access_from_parent: row.teamAccessFromParent };
      if (input.managed_by_parent === false && !row.email) {
        throw new AppError('validation_failed', 'A sub-account needs an email before it can manage itself', {
          details: [{ field: 'managed_by_parent', message: 'requires the sub-account to have an email' }],
        });
      }
      await updateAccount(tx, accountId, {
        ...(input.managed_by_parent !== undefined ? { managedByParent: input.managed_by_parent } : {}),
        ...(input.team_access_from_parent !== undefined ? { teamAccessFromParent: input.team_access_from_parent } : {}),
      });
      await record(tx, {
        accountId, actor, action: 'sub_account.access_changed', target: { type: 'account', id: accountId },
        ...changedFields(before, { ...before, ...input }),
      });
    });
    return { ok: true };
  }

  return {
    list, invite, remove, team, access, setAccess, transferOwnership,
    // The caller's own team (POST /team, DELETE and PATCH /team/{memberId}).
    inviteToTeam: (actor: Actor, input: InviteInput) => add(actor, actor.accountId, input),
    removeFromTeam: (actor: Actor, memberId: string) => drop(actor, actor.accountId, memberId),
    changeMember: (actor: Actor, memberId: string, input: MemberUpdateInput) => change(actor, actor.accountId, memberId, input),
  };
}

export type UserService = ReturnType<typeof createUserService>;

// User rows other modules read or write inside their own transaction (an account's first owner, a 2FA reset).
export { findUser, insertUser } from './users.repo.ts';
