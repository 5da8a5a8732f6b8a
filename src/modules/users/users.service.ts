import type { Db, Executor } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { findAccount, updateAccount } from '../accounts/accounts.repo.ts';
import { loadManagedAccount } from '../accounts/access.ts';
import { insertUser, listUsers, removeUser, type UserRow } from './users.repo.ts';

export interface InviteInput {
  email: string;
  name?: string | null;
  can_send?: boolean;
  can_billing?: boolean;
}

const view = (u: UserRow, source = u.source) => ({
  id: u.id, email: u.email, name: u.name, can_send: u.canSend, can_billing: u.canBilling, status: u.status, source,
  created_at: u.createdAt.toISOString(),
});

// Team members of an account. A sub-account's team is its direct members plus, when team_access_from_parent is
// on, the parent's members (listed with source "parent"). The parent's active members are its "eligible" team.
export function createUserService(deps: { db: Db; invite: (db: Executor, accountId: string, userId: string) => Promise<string> }) {
  const { db } = deps;

  /** A signed-in user cannot hand out a permission they do not hold themselves (keys hold every permission). */
  function assertMayGrant(actor: Actor, input: InviteInput) {
    const user = actor.user;
    if (!user) return;
    if ((input.can_send ?? true) && !user.canSend) throw new AppError('permission_denied', 'You cannot give can_send: you do not have it');
    if (input.can_billing && !user.canBilling) throw new AppError('permission_denied', 'You cannot give can_billing: you do not have it');
  }

  /** Adds the member and their invite link in one transaction. */
  async function add(accountId: string, input: InviteInput) {
    return db.transaction(async (tx) => {
      const user = await insertUser(tx, accountId, {
        email: input.email.trim(), name: input.name?.trim() || null, canSend: input.can_send ?? true, canBilling: input.can_billing ?? false,
      });
      if (!user) throw new AppError('email_taken', 'This account already has a user with that email');
      const inviteLink = await deps.invite(tx, accountId, user.id);
      return { success: true, user: view(user), email_sent: false, invite_link: inviteLink };
    });
  }

  async function list(actor: Actor, accountId: string) {
    await loadManagedAccount(db, actor, accountId, { write: false });
    return { users: (await listUsers(db, accountId)).map((u) => view(u)) };
  }

  /** Tasman sends no email: the member is added at once and `email_sent` is false. */
  async function invite(actor: Actor, accountId: string, input: InviteInput) {
    await loadManagedAccount(db, actor, accountId, { write: true });
    assertMayGrant(actor, input);
    return add(accountId, input);
  }

  /** POST /team: a member of the caller's own account, with the same invite link. */
  async function inviteToTeam(actor: Actor, input: InviteInput) {
    assertMayGrant(actor, input);
    return add(actor.accountId, input);
  }

  /** DELETE /team/{memberId}: their sessions end on their next request. Nobody removes themselves this way. */
  async function removeFromTeam(actor: Actor, memberId: string) {
    if (actor.user?.id === memberId) throw new AppError('forbidden', 'You cannot remove yourself');
    if (!(await removeUser(db, actor.accountId, memberId))) throw notFound('User');
    return { ok: true };
  }

  async function remove(actor: Actor, accountId: string, memberId: string) {
    await loadManagedAccount(db, actor, accountId, { write: true });
    if (!(await removeUser(db, accountId, memberId))) throw notFound('User');
    return { ok: true };
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
      if (input.managed_by_parent === false && !row.email) {
        throw new AppError('validation_failed', 'A sub-account needs an email before it can manage itself', {
          details: [{ field: 'managed_by_parent', message: 'requires the sub-account to have an email' }],
        });
      }
      await updateAccount(tx, accountId, {
        ...(input.managed_by_parent !== undefined ? { managedByParent: input.managed_by_parent } : {}),
        ...(input.team_access_from_parent !== undefined ? { teamAccessFromParent: input.team_access_from_parent } : {}),
      });
    });
    return { ok: true };
  }

  return { list, invite, inviteToTeam, removeFromTeam, remove, team, access, setAccess };
}

export type UserService = ReturnType<typeof createUserService>;
