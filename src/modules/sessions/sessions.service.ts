import type { Db, Executor } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import type { NamedOperator } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { hashToken, newToken, sameSecret } from './tokens.ts';
import { argonVerify, dummyHash, hashPassword } from './argon.ts';
import { passwordMessages, passwordProblem } from './password-policy.ts';
import type { TwoFactorService } from './two-factor.service.ts';
import { endChallenge, findChallenge, insertChallenge } from './two-factor.repo.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import { record } from '../../platform/audit/record.ts';
import type { AuditActor, AuditEntry } from '../../platform/audit/entry.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { inviteMail } from '../../platform/mail/mails.ts';
import {
  acceptInvite, findInvite, findOperatorSession, findUserSession, insertSession,
  loginCandidates, revokeSession, setInvite, touchSession,
} from './sessions.repo.ts';

const INVITE_DAYS = 7;
// How long a password accepted for a user with a second factor waits for the code.
export const CHALLENGE_MINUTES = 5;
// last_seen_at is written at most once a minute per session: idle expiry needs no finer grain.
const TOUCH_EVERY_MS = 60_000;

export interface NewSession {
  token: string;
  csrfToken: string;
}

/** The password was right and the user has a second factor: the code goes with this token to POST /session/two-factor. */
export interface SecondFactorChallenge {
  challenge: string;
  expiresIn: number;
}

const normalEmail = (email: string) => email.trim().toLowerCase();

function weakPassword(message: string): AppError {
  return new AppError('weak_password', message, { details: [{ field: 'password', message }] });
}

/**
 * Dashboard sign-in. A signed-in browser is an actor like an API key (same routes, same tenant rules); these are
 * the ways to become one and to stop being one. Cookie tokens and invite tokens are stored only as hashes.
 */
export function createSessionService(deps: {
  db: Db; publicUrl: string; twoFactor: TwoFactorService; throttle: SignInThrottle; mail: Mailer;
  /** The audit log's rate-capped writer of refusals (modules/audit): failed sign-ins. */
  refused: (entry: Omit<AuditEntry, 'outcome'> & { reason: string }) => Promise<void>;
}) {
  const { db } = deps;

  /** Who tried: the user the email belongs to when there is one, else nobody known (the email typed is kept). */
  const signer = (user: { id: string } | undefined, email: string, address: string | null): AuditActor =>
    user ? { type: 'user', id: user.id, label: email, address } : { type: 'anonymous', id: null, label: email, address };

  /** A user's new session and its audit entry, in one transaction. */
  async function signIn(user: { id: string; accountId: string; email: string }, address: string | null, how: string): Promise<NewSession> {
    return db.transaction(async (tx) => {
      const created = await open(tx, { kind: 'user', userId: user.id });
      await record(tx, {
        accountId: user.accountId, actor: signer(user, user.email, address), action: 'session.signed_in', target: { type: 'user', id: user.id }, after: { how },
      });
      return created;
    });
  }

  const failed = (user: { id: string; account_id: string } | undefined, email: string, address: string | null, reason: string) => deps.refused({
    accountId: user?.account_id ?? null, actor: signer(user, email, address), action: 'session.sign_in_failed',
    target: user ? { type: 'user', id: user.id } : null, reason,
  });

  async function open(exec: Executor, row: { kind: 'user' | 'operator'; userId?: string; operatorTokenHash?: string; operatorId?: string }): Promise<NewSession> {
    const token = newToken();
    const csrfToken = newToken();
    await insertSession(exec, { tokenHash: hashToken(token), csrfToken, ...row });
    return { token, csrfToken };
  }

  /**
   * A fresh invite link for a member (invites and owner accounts), emailed to them in the caller's transaction
   * (the caller kicks the mailer once it commits). The token is in the fragment, so it never reaches access logs.
   */
  async function invite(exec: Executor, accountId: string, userId: string): Promise<string> {
    const token = newToken();
    const to = await setInvite(exec, accountId, userId, hashToken(token), new Date(Date.now() + INVITE_DAYS * 86_400_000));
    const link = `${deps.publicUrl}/app/invite#${token}`;
    if (to) await deps.mail.queue(exec, inviteMail(to.email, to.business_name, link, accountId));
    return link;
  }

  async function describeInvite(token: string) {
    const found = await findInvite(db, hashToken(token));
    if (!found) throw new AppError('invite_invalid', 'This invite link is not valid any more: ask for a new one');
    return { email: found.email, business_name: found.business_name };
  }

  /** Sets the password and signs the user in: the invite is spent in the same update that sets the password. */
  async function redeemInvite(token: string, password: string, address: string | null = null): Promise<NewSession> {
    const found = await findInvite(db, hashToken(token));
    if (!found) throw new AppError('invite_invalid', 'This invite link is not valid any more: ask for a new one');
    const problem = passwordProblem(password, found.email);
    if (problem) throw weakPassword(passwordMessages[problem]);
    const passwordHash = await hashPassword(password);
    const userId = await acceptInvite(db, hashToken(token), passwordHash);
    if (!userId) throw new AppError('invite_invalid', 'This invite link is not valid any more: ask for a new one');
    return signIn({ id: userId, accountId: found.account_id, email: found.email }, address, 'invite');
  }

  /**
   * Email and password, from a browser that may bring a device cookie. The same email may belong to members of
   * several accounts: the oldest membership whose password matches is signed in. A client still waiting after
   * earlier failures is refused before any password is checked; a browser that signed in to this email before
   * waits only for its own failures, never for strangers'. A user with a second factor gets a challenge instead
   * of a session, and the failure count is left as it is: only a whole sign-in clears it, so re-entering the
   * password does not buy more guesses at the code.
   */
  async function login(emailGiven: string, password: string, deviceCookie?: string, address: string | null = null): Promise<NewSession | SecondFactorChallenge> {
    const email = normalEmail(emailGiven);
    const device = deps.throttle.trustedDevice(deviceCookie, email);
    await deps.throttle.refuseWhileDelayed(email, device);
    const candidates = await loginCandidates(db, email);
    let matched: (typeof candidates)[number] | null = null;
    for (const c of candidates) {
      if (await argonVerify(c.password_hash, password)) { matched = c; break; }
    }
    if (candidates.length === 0) await argonVerify(await dummyHash(), password);
    if (!matched) {
      await deps.throttle.failed(email, device);
      await failed(candidates[0], email, address, 'invalid_credentials');
      throw new AppError('invalid_credentials', 'Wrong email or password');
    }
    const userId = matched.id;
    if (await deps.twoFactor.required(userId)) {
      const challenge = newToken();
      await insertChallenge(db, { tokenHash: hashToken(challenge), userId, email, expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000) });
      return { challenge, expiresIn: CHALLENGE_MINUTES * 60 };
    }
    await deps.throttle.succeeded(email, device);
    return signIn({ id: userId, accountId: matched.account_id, email }, address, 'password');
  }

  /**
   * The second step: the challenge from the password step and a code from the app (or a recovery code). A wrong
   * code counts like a wrong password (on the device cookie's count for a known browser); a right one is spent,
   * as is the challenge.
   */
  async function verifySecondFactor(challenge: string, code: string, deviceCookie?: string, address: string | null = null): Promise<NewSession> {
    const tokenHash = hashToken(challenge);
    const found = await findChallenge(db, tokenHash);
    if (!found) throw new AppError('unauthorized', 'This sign-in has expired: enter your email and password again');
    const device = deps.throttle.trustedDevice(deviceCookie, found.email);
    await deps.throttle.refuseWhileDelayed(found.email, device);
    if (!(await deps.twoFactor.check(found.user_id, code))) {
      await deps.throttle.failed(found.email, device);
      await failed({ id: found.user_id, account_id: found.account_id }, found.email, address, 'invalid_code');
      throw new AppError('invalid_code', 'That code is not right, or was used already: try the current one', {
        details: [{ field: 'code', message: 'Wrong or already used code' }],
      });
    }
    if (!(await endChallenge(db, tokenHash))) throw new AppError('unauthorized', 'This sign-in has expired: enter your email and password again');
    await deps.throttle.succeeded(found.email, device);
    return signIn({ id: found.user_id, accountId: found.account_id, email: found.email }, address, 'password and second factor');
  }

  async function operatorLogin(given: string, operatorToken: string | null, address: string | null = null): Promise<NewSession> {
    if (!operatorToken) throw new AppError('forbidden', 'The operator console is disabled: set TASMAN_ADMIN_TOKEN');
    if (!sameSecret(given, operatorToken)) {
      await deps.refused({ accountId: null, actor: { type: 'anonymous', id: null, label: null, address }, action: 'operator.sign_in_failed', reason: 'invalid_credentials' });
      throw new AppError('invalid_credentials', 'Wrong operator token');
    }
    return db.transaction(async (tx) => {
      const created = await open(tx, { kind: 'operator', operatorTokenHash: hashToken(operatorToken) });
      await record(tx, { accountId: null, actor: { type: 'operator', id: null, label: 'operator', address }, action: 'operator.signed_in' });
      return created;
    });
  }

  async function logout(token: string | undefined): Promise<{ ok: true }> {
    if (token) await revokeSession(db, hashToken(token));
    return { ok: true };
  }

  /** The actor behind a session cookie, with the CSRF token its writes must carry; null when not live. */
  async function authenticate(token: string): Promise<{ actor: Actor; csrfToken: string; name: string | null } | null> {
    const tokenHash = hashToken(token);
    const found = await findUserSession(db, tokenHash);
    if (!found) return null;
    if (Date.now() - found.lastSeenAt.getTime() > TOUCH_EVERY_MS) await touchSession(db, tokenHash);
    return { actor: found.actor, csrfToken: found.csrfToken, name: found.name };
  }

  /** A live console session: its CSRF token, and the named operator it belongs to (null: the operator token's). */
  async function authenticateOperator(token: string, operatorToken: string): Promise<{ csrfToken: string; operator: NamedOperator | null } | null> {
    const tokenHash = hashToken(token);
    const found = await findOperatorSession(db, tokenHash, hashToken(operatorToken));
    if (!found) return null;
    if (Date.now() - new Date(found.last_seen_at).getTime() > TOUCH_EVERY_MS) await touchSession(db, tokenHash);
    return { csrfToken: found.csrf_token, operator: found.operator_id ? { id: found.operator_id, name: found.operator_name ?? '' } : null };
  }

  /** A named operator's console session (after their password and code), in the caller's transaction. */
  const openOperatorSession = (exec: Executor, operatorId: string) => open(exec, { kind: 'operator', operatorId });

  /** The device cookie to give a browser that just signed in as this user (docs/decisions/0057-sign-in-throttle.md). */
  const deviceCookie = (current: string | undefined, email: string) => deps.throttle.deviceCookieAfterSignIn(current, normalEmail(email));

  return {
    invite, describeInvite, redeemInvite, login, verifySecondFactor, operatorLogin, logout, authenticate, authenticateOperator, openOperatorSession, deviceCookie,
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

/** What the dashboard needs to know about who is signed in (GET /session). */
export function sessionView(actor: Actor, csrfToken: string, name: string | null) {
  const user = actor.user!;
  return {
    csrf_token: csrfToken,
    user: {
      id: user.id, email: user.email, name, can_send: actor.permissions.includes('send'), can_billing: actor.permissions.includes('billing'),
      role: user.role, permissions: actor.permissions, two_factor: user.twoFactor,
    },
    account: {
      id: actor.accountId, business_name: actor.account.businessName, parent_account_id: actor.account.parentId,
      hierarchy_enabled: actor.account.hierarchyEnabled, account_status: actor.account.accountStatus,
      two_factor_required: actor.account.settings.twoFactorRequired,
    },
  };
}
