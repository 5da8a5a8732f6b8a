import { and, eq, gt, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { accountUsers, sessions } from '../../platform/db/schema/index.ts';
import type { Actor } from '../../platform/actor.ts';
import { PARENT_JOIN, SUBTREE_OPEN, SUBTREE_STATUS, toActor, type ActorRow } from '../keys/keys.repo.ts';
import { permissionsOf, type Role } from '../../platform/permissions.ts';

/** Sessions end after this long without a request (12 hours idle). */
export const IDLE_HOURS = 12;

export interface SessionRow {
  csrf_token: string;
  last_seen_at: Date | string;
}

interface OperatorSessionRow extends SessionRow { operator_id: string | null; operator_name: string | null }

interface UserSessionRow extends SessionRow, Omit<ActorRow, 'key_id' | 'permissions' | 'user_id'> {
  user_id: string;
  email: string;
  role: Role;
  name: string | null;
  can_send: boolean;
  can_billing: boolean;
  two_factor: boolean;
}

export interface UserSession {
  actor: Actor & { user: NonNullable<Actor['user']> };
  name: string | null;
  csrfToken: string;
  lastSeenAt: Date;
}

export async function insertSession(db: Executor, row: { tokenHash: string; kind: 'user' | 'operator'; userId?: string; operatorTokenHash?: string; operatorId?: string; csrfToken: string }) {
  await db.insert(sessions).values({
    tokenHash: row.tokenHash, kind: row.kind, userId: row.userId ?? null, operatorTokenHash: row.operatorTokenHash ?? null, operatorId: row.operatorId ?? null, csrfToken: row.csrfToken,
  });
}

/**
 * A live user session: not signed out, used within the idle window, its user not removed and its account not
 * closed. Removing a user therefore ends their sessions on the very next request.
 */
export async function findUserSession(db: Executor, tokenHash: string): Promise<UserSession | null> {
  const [row] = await rows<UserSessionRow>(db, sql`
    select s.csrf_token, s.last_seen_at, u.id as user_id, u.email, u.name, u.role, u.can_send, u.can_billing,
           u.totp_enabled_at is not null as two_factor,
           a.id as account_id, a.parent_id, a.business_name, a.abn, ${SUBTREE_STATUS} as account_status, a.hierarchy_enabled,
           a.daily_limit, a.managed_by_parent, a.optout_exempt, a.inherit_parent_senders, a.settings
    from sessions s join account_users u on u.id = s.user_id join accounts a on a.id = u.account_id ${PARENT_JOIN}
    where s.token_hash = ${tokenHash} and s.kind = 'user' and s.revoked_at is null and u.removed_at is null
      and s.last_seen_at > now() - make_interval(hours => ${IDLE_HOURS}) and ${SUBTREE_OPEN}`);
  if (!row) return null;
  const user = { id: row.user_id, email: row.email, role: row.role, canSend: row.can_send, canBilling: row.can_billing, twoFactor: row.two_factor };
  return {
    // A signed-in user acts with the permissions of their role and flags, read on every request: a change to them
    // holds from the user's very next request.
    actor: { ...toActor({ ...row, key_id: `session:${row.user_id}`, permissions: permissionsOf(user) }), user },
    name: row.name,
    csrfToken: row.csrf_token,
    lastSeenAt: new Date(row.last_seen_at),
  };
}

/**
 * A live operator session: one signed in with the operator token that is current now, or a named operator's
 * (password and code) while that operator is live. The named operator's id and name come with it.
 */
export async function findOperatorSession(db: Executor, tokenHash: string, operatorTokenHash: string): Promise<OperatorSessionRow | null> {
  const [row] = await rows<OperatorSessionRow>(db, sql`
    select s.csrf_token, s.last_seen_at, o.id as operator_id, o.name as operator_name
    from sessions s left join operators o on o.id = s.operator_id
    where s.token_hash = ${tokenHash} and s.kind = 'operator' and s.revoked_at is null
      and s.last_seen_at > now() - make_interval(hours => ${IDLE_HOURS})
      and ((s.operator_id is null and s.operator_token_hash = ${operatorTokenHash}) or (s.operator_id is not null and o.revoked_at is null))`);
  return row ?? null;
}

export async function touchSession(db: Executor, tokenHash: string): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.tokenHash, tokenHash));
}

export async function revokeSession(db: Executor, tokenHash: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.tokenHash, tokenHash), sql`${sessions.revokedAt} is null`));
}

/** Everyone who may sign in with this email: active members with a password, of open accounts, oldest first. */
export async function loginCandidates(db: Executor, email: string) {
  return rows<{ id: string; account_id: string; password_hash: string }>(db, sql`
    select u.id, u.account_id, u.password_hash from account_users u join accounts a on a.id = u.account_id
    where lower(u.email) = ${email} and u.removed_at is null and u.password_hash is not null and a.account_status <> 'closed'
    order by u.created_at, u.id limit 5`);
}

/** Gives a member a fresh invite (replacing any earlier one, which stops working); returns whom it is for. */
export async function setInvite(db: Executor, accountId: string, userId: string, inviteHash: string, expiresAt: Date) {
  const [row] = await rows<{ email: string; business_name: string }>(db, sql`
    update account_users u set invite_hash = ${inviteHash}, invite_expires_at = ${expiresAt}
    from accounts a where a.id = u.account_id and u.account_id = ${accountId} and u.id = ${userId}
    returning u.email, a.business_name`);
  return row ?? null;
}

export async function findInvite(db: Executor, inviteHash: string) {
  const [row] = await rows<{ id: string; account_id: string; email: string; business_name: string }>(db, sql`
    select u.id, u.account_id, u.email, a.business_name from account_users u join accounts a on a.id = u.account_id
    where u.invite_hash = ${inviteHash} and u.invite_expires_at > now() and u.removed_at is null and a.account_status <> 'closed'`);
  return row ?? null;
}

/** Sets the password and spends the invite in one conditional update: an invite works once. */
export async function acceptInvite(db: Executor, inviteHash: string, passwordHash: string): Promise<string | null> {
  const done = await db.update(accountUsers).set({ passwordHash, inviteHash: null, inviteExpiresAt: null })
    .where(and(eq(accountUsers.inviteHash, inviteHash), gt(accountUsers.inviteExpiresAt, new Date()), sql`${accountUsers.removedAt} is null`))
    .returning({ id: accountUsers.id });
  return done[0]?.id ?? null;
}
