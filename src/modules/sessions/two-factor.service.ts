import type { Db } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { open, seal } from '../../platform/crypto/secret-box.ts';
import { acceptedStep, hashRecoveryCode, isTotpCode, newRecoveryCodes, newTotpSecret, otpauthUri } from './totp.ts';
import { argonVerify } from './argon.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import { findUser } from '../users/users.service.ts';
import { grantable } from '../users/team-rules.ts';
import { requireWithin } from '../../platform/permissions.ts';
import { record } from '../../platform/audit/record.ts';
import { claimStep, clearTotp, enableTotp, setPendingSecret, spendRecoveryCode, totpState, type TotpState } from './two-factor.repo.ts';

function userOf(actor: Actor): NonNullable<Actor['user']> {
  if (!actor.user) throw new AppError('forbidden', 'Two-factor authentication belongs to a dashboard user: sign in to the dashboard to change it');
  return actor.user;
}

const wrong = (field: 'code' | 'password', message: string) => new AppError('validation_failed', message, { details: [{ field, message }] });
const notOn = () => new AppError('conflict', 'Two-factor authentication is not on');

/**
 * The optional TOTP second factor of a dashboard user: enrolment (a secret shown once, turned on by
 * its first code, with ten one-time recovery codes), turning it off (a current code, a recovery code or the
 * password), an owner's reset of a member's, and the check the sign-in's second step makes. The secret is
 * sealed at rest under the service key, like webhook signing secrets.
 */
export function createTwoFactorService(deps: { db: Db; secretKey: Buffer; throttle: SignInThrottle; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** A TOTP code (in a step after the last one used) or an unused recovery code; spends it when it is right. */
  async function spendCode(userId: string, state: TotpState, code: string): Promise<boolean> {
    if (!state.enabledAt || !state.sealed) return false;
    if (!isTotpCode(code)) return spendRecoveryCode(db, userId, hashRecoveryCode(code));
    const step = await acceptedStep(open(deps.secretKey, state.sealed), code, now(), state.lastStep);
    return step !== null && claimStep(db, userId, step);
  }

  async function status(actor: Actor) {
    const state = await totpState(db, userOf(actor).id);
    return { enabled: state.enabledAt !== null, pending: state.enabledAt === null && state.sealed !== null, recovery_codes_left: state.recoveryLeft };
  }

  /** A new secret for the user's authenticator app; nothing changes at sign-in until a code confirms it. */
  async function enrol(actor: Actor) {
    const user = userOf(actor);
    const secret = await newTotpSecret();
    if (!(await setPendingSecret(db, user.id, seal(deps.secretKey, secret)))) {
      throw new AppError('conflict', 'Two-factor authentication is already on: turn it off before enrolling another device');
    }
    return { secret, otpauth_uri: await otpauthUri(user.email, secret) };
  }

  /** The first code from the app turns the second factor on; the recovery codes are returned this once. */
  async function confirm(actor: Actor, code: string) {
    const user = userOf(actor);
    const state = await totpState(db, user.id);
    if (state.enabledAt) throw new AppError('conflict', 'Two-factor authentication is already on');
    if (!state.sealed) throw new AppError('conflict', 'Start the enrolment first: there is no secret to confirm');
    const step = await acceptedStep(open(deps.secretKey, state.sealed), code, now(), null);
    if (step === null) throw wrong('code', 'That code is not right: check the app shows Tasman and your email, and try the current code');
    const codes = newRecoveryCodes();
    const sealed = state.sealed;
    await db.transaction(async (tx) => {
      if (!(await enableTotp(tx, user.id, sealed, step, codes.map(hashRecoveryCode)))) {
        throw new AppError('conflict', 'The enrolment changed meanwhile: start again');
      }
      await record(tx, {
        accountId: actor.accountId, actor, action: 'two_factor.enabled', target: { type: 'user', id: user.id },
        before: { two_factor: false }, after: { two_factor: true, recovery_codes_issued: codes.length },
      });
    });
    return { enabled: true as const, recovery_codes: codes };
  }

  /**
   * Off with a current code, a recovery code or the password. Wrong ones count towards the email's sign-in
   * delay, and an email that must wait cannot turn it off either: a stolen session cannot guess the password here.
   */
  async function disable(actor: Actor, input: { code?: string | undefined; password?: string | undefined }) {
    const user = userOf(actor);
    const state = await totpState(db, user.id);
    if (!state.sealed) throw notOn();
    const email = user.email.trim().toLowerCase();
    await deps.throttle.refuseWhileDelayed(email, null);
    if (state.enabledAt) {
      if (input.code) {
        if (!(await spendCode(user.id, state, input.code))) {
          await deps.throttle.failed(email, null);
          throw wrong('code', 'That code is not right, or was used already');
        }
      } else if (input.password) {
        if (!state.passwordHash || !(await argonVerify(state.passwordHash, input.password))) {
          await deps.throttle.failed(email, null);
          throw wrong('password', 'Wrong password');
        }
      } else {
        throw wrong('code', 'Give a current code from your app, a recovery code or your password');
      }
    }
    await db.transaction(async (tx) => {
      await clearTotp(tx, actor.accountId, user.id);
      await record(tx, {
        accountId: actor.accountId, actor, action: 'two_factor.disabled', target: { type: 'user', id: user.id },
        before: { two_factor: state.enabledAt !== null }, after: { two_factor: false },
      });
    });
    return { ok: true };
  }

  /**
   * The reset of a member who lost their device, by the owner, an admin or a key with `manage` (the route's
   * permission): not oneself (that is `disable`, which needs a code or the password), and not a member holding a
   * permission the caller lacks. The owner's is reset by no other user; a key holding every scope can, which is
   * the owner's way back without a recovery code.
   */
  async function reset(actor: Actor, memberId: string) {
    if (actor.user?.id === memberId) throw new AppError('forbidden', 'Turn your own two-factor authentication off on the Security page');
    const target = await findUser(db, actor.accountId, memberId);
    if (!target) throw notFound('User');
    if (target.role === 'owner' && actor.user) {
      throw new AppError('permission_denied', 'Nobody but the owner turns the owner\'s two-factor authentication off');
    }
    requireWithin(actor, grantable(target), 'reset the two-factor authentication of a member who holds a permission you do not have');
    await db.transaction(async (tx) => {
      if (!(await clearTotp(tx, actor.accountId, memberId))) throw notFound('User');
      await record(tx, { accountId: actor.accountId, actor, action: 'two_factor.reset', target: { type: 'user', id: memberId }, after: { two_factor: false } });
    });
    return { ok: true };
  }

  /** Whether sign-in asks this user for a code. */
  async function required(userId: string): Promise<boolean> {
    return (await totpState(db, userId)).enabledAt !== null;
  }

  /** The sign-in's second step: spends the code when it is right. */
  async function check(userId: string, code: string): Promise<boolean> {
    return spendCode(userId, await totpState(db, userId), code);
  }

  return { status, enrol, confirm, disable, reset, required, check };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
