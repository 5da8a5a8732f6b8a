import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';

// Named operators (no tenant: operators stand above every account). Tokens are stored as their SHA-256 only.

export interface OperatorRow {
  id: string; name: string; token_prefix: string; created_at: Date | string; created_by: string; revoked_at: Date | string | null;
}

/** A new operator; null when a live operator already has that name (in any case). */
export async function insertOperator(db: Executor, input: { name: string; tokenHash: string; tokenPrefix: string; createdBy: string }): Promise<OperatorRow | null> {
  const [row] = await rows<OperatorRow>(db, sql`
    insert into operators (id, name, token_hash, token_prefix, created_by)
    values (${uuidv7()}, ${input.name}, ${input.tokenHash}, ${input.tokenPrefix}, ${input.createdBy})
    on conflict do nothing
    returning id, name, token_prefix, created_at, created_by, revoked_at`);
  return row ?? null;
}

export function listOperators(db: Executor, includeRevoked: boolean): Promise<OperatorRow[]> {
  return rows<OperatorRow>(db, sql`
    select id, name, token_prefix, created_at, created_by, revoked_at from operators
    where ${includeRevoked} or revoked_at is null order by created_at, id`);
}

/** Revokes a live operator's token; null when no live operator has that id. */
export async function revokeOperator(db: Executor, id: string): Promise<OperatorRow | null> {
  const [row] = await rows<OperatorRow>(db, sql`
    update operators set revoked_at = now() where id = ${id} and revoked_at is null
    returning id, name, token_prefix, created_at, created_by, revoked_at`);
  return row ?? null;
}

export async function findLiveOperator(db: Executor, tokenHash: string): Promise<{ id: string; name: string } | null> {
  const [row] = await rows<{ id: string; name: string }>(db, sql`
    select id, name from operators where token_hash = ${tokenHash} and revoked_at is null`);
  return row ?? null;
}

/** A new setup link's token for a live operator, clearing their password and second factor; false when none is live. */
export async function resetForSetup(db: Executor, id: string, tokenHash: string, expiresAt: Date): Promise<boolean> {
  const done = await rows<{ id: string }>(db, sql`
    update operators set setup_token_hash = ${tokenHash}, setup_expires_at = ${expiresAt}, password_hash = null,
      totp_secret_sealed = null, totp_enabled_at = null, totp_last_step = null
    where id = ${id} and revoked_at is null returning id`);
  // A lost device may be in someone else's hands: the sessions it opened end with it.
  if (done.length > 0) await db.execute(sql`update sessions set revoked_at = now() where operator_id = ${id} and revoked_at is null`);
  return done.length > 0;
}

export interface SetupRow { id: string; name: string; totp_secret_sealed: Buffer | null }

/** The live operator an unexpired setup link belongs to. */
export async function findBySetupToken(db: Executor, tokenHash: string): Promise<SetupRow | null> {
  const [row] = await rows<SetupRow>(db, sql`
    select id, name, totp_secret_sealed from operators
    where setup_token_hash = ${tokenHash} and setup_expires_at > now() and revoked_at is null`);
  return row ?? null;
}

/** The authenticator secret shown on the setup page, kept until the setup completes (a reload shows the same one). */
export async function setPendingSecret(db: Executor, id: string, sealed: Buffer): Promise<void> {
  await db.execute(sql`update operators set totp_secret_sealed = ${sealed} where id = ${id} and totp_enabled_at is null`);
}

/** Sets the password and turns the second factor on, spending the setup link; false when it was spent meanwhile. */
export async function completeSetup(db: Executor, tokenHash: string, input: { passwordHash: string; step: number }): Promise<boolean> {
  const done = await rows<{ id: string }>(db, sql`
    update operators set password_hash = ${input.passwordHash}, totp_enabled_at = now(), totp_last_step = ${input.step},
      setup_token_hash = null, setup_expires_at = null
    where setup_token_hash = ${tokenHash} and setup_expires_at > now() and revoked_at is null and totp_secret_sealed is not null
    returning id`);
  return done.length > 0;
}

export interface SignInRow { id: string; name: string; password_hash: string; totp_secret_sealed: Buffer; totp_last_step: string | null }

/** The live operator of this name (any case) who has set a password and a second factor. */
export async function findForSignIn(db: Executor, name: string): Promise<SignInRow | null> {
  const [row] = await rows<SignInRow>(db, sql`
    select id, name, password_hash, totp_secret_sealed, totp_last_step::text as totp_last_step from operators
    where lower(name) = lower(${name}) and revoked_at is null and password_hash is not null and totp_enabled_at is not null`);
  return row ?? null;
}

/** Records the step of an accepted code, only if it is later than the last one (two requests with one code: one wins). */
export async function claimStep(db: Executor, id: string, step: number): Promise<boolean> {
  const done = await rows<{ id: string }>(db, sql`
    update operators set totp_last_step = ${step} where id = ${id} and (totp_last_step is null or totp_last_step < ${step}) returning id`);
  return done.length > 0;
}
