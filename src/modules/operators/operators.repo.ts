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
