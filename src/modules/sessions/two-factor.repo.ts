import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { accountUsers, loginChallenges, userRecoveryCodes } from '../../platform/db/schema/index.ts';

export interface TotpState {
  sealed: Buffer | null;
  enabledAt: Date | null;
  lastStep: number | null;
  recoveryLeft: number;
  passwordHash: string | null;
}

/** A user's second factor: the sealed secret (pending or enabled), when it was enabled, codes left. */
export async function totpState(db: Executor, userId: string): Promise<TotpState> {
  const [row] = await rows<{ sealed: Buffer | null; enabled_at: Date | string | null; last_step: string | null; left: number; password_hash: string | null }>(db, sql`
    select u.totp_secret_sealed as sealed, u.password_hash, u.totp_enabled_at as enabled_at, u.totp_last_step::text as last_step,
           (select count(*)::int from user_recovery_codes r where r.user_id = u.id and r.used_at is null) as left
    from account_users u where u.id = ${userId}`);
  return {
    sealed: row?.sealed ?? null,
    enabledAt: row?.enabled_at ? new Date(row.enabled_at) : null,
    lastStep: row?.last_step ? Number(row.last_step) : null,
    recoveryLeft: row?.left ?? 0,
    passwordHash: row?.password_hash ?? null,
  };
}

/** Starts (or restarts) an enrolment; false when the second factor is already on. */
export async function setPendingSecret(db: Executor, userId: string, sealed: Buffer): Promise<boolean> {
  const done = await db.update(accountUsers).set({ totpSecretSealed: sealed, totpLastStep: null })
    .where(and(eq(accountUsers.id, userId), isNull(accountUsers.totpEnabledAt))).returning({ id: accountUsers.id });
  return done.length > 0;
}

/**
 * Turns the pending secret on with the step of its first code and replaces the recovery codes, only if the
 * secret is still the one that code was checked against (a second enrolment meanwhile wins).
 */
export async function enableTotp(db: Executor, userId: string, sealed: Buffer, step: number, recoveryHashes: string[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const done = await tx.update(accountUsers).set({ totpEnabledAt: new Date(), totpLastStep: step })
      .where(and(eq(accountUsers.id, userId), isNull(accountUsers.totpEnabledAt), eq(accountUsers.totpSecretSealed, sealed)))
      .returning({ id: accountUsers.id });
    if (done.length === 0) return false;
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
    await tx.insert(userRecoveryCodes).values(recoveryHashes.map((codeHash) => ({ userId, codeHash })));
    return true;
  });
}

/** Records `step` as used; false when it (or a later one) already was: each code works once. */
export async function claimStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const done = await db.update(accountUsers).set({ totpLastStep: step })
    .where(and(eq(accountUsers.id, userId), isNotNull(accountUsers.totpEnabledAt),
      sql`(${accountUsers.totpLastStep} is null or ${accountUsers.totpLastStep} < ${step})`))
    .returning({ id: accountUsers.id });
  return done.length > 0;
}

/** Spends one unused recovery code; false when there is no such unused code. */
export async function spendRecoveryCode(db: Executor, userId: string, codeHash: string): Promise<boolean> {
  const done = await db.update(userRecoveryCodes).set({ usedAt: new Date() })
    .where(and(eq(userRecoveryCodes.userId, userId), eq(userRecoveryCodes.codeHash, codeHash), isNull(userRecoveryCodes.usedAt)))
    .returning({ userId: userRecoveryCodes.userId });
  return done.length > 0;
}

/** Turns the second factor off (or abandons an enrolment): secret, step and recovery codes go. */
export async function clearTotp(db: Executor, accountId: string, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const done = await tx.update(accountUsers).set({ totpSecretSealed: null, totpEnabledAt: null, totpLastStep: null })
      .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.id, userId), isNull(accountUsers.removedAt)))
      .returning({ id: accountUsers.id });
    if (done.length === 0) return false;
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
    await tx.delete(loginChallenges).where(eq(loginChallenges.userId, userId));
    return true;
  });
}

/** A password accepted, waiting for the second factor; expired challenges are swept as new ones are written. */
export async function insertChallenge(db: Executor, row: { tokenHash: string; userId: string; email: string; expiresAt: Date }): Promise<void> {
  await db.delete(loginChallenges).where(sql`${loginChallenges.expiresAt} < now()`);
  await db.insert(loginChallenges).values(row);
}

/** A live challenge of a user who may still sign in (not removed, second factor still on). */
export async function findChallenge(db: Executor, tokenHash: string) {
  const [row] = await rows<{ user_id: string; email: string; account_id: string }>(db, sql`
    select c.user_id, c.email, u.account_id from login_challenges c join account_users u on u.id = c.user_id
    where c.token_hash = ${tokenHash} and c.expires_at > now() and u.removed_at is null and u.totp_enabled_at is not null`);
  return row ?? null;
}

/** Ends a challenge; false when it had already ended (so one challenge opens one session). */
export async function endChallenge(db: Executor, tokenHash: string): Promise<boolean> {
  const done = await db.delete(loginChallenges).where(eq(loginChallenges.tokenHash, tokenHash)).returning({ t: loginChallenges.tokenHash });
  return done.length > 0;
}
