import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { PARENT_JOIN, SUBTREE_OPEN, SUBTREE_STATUS, toActor, type ActorRow } from '../keys/keys.repo.ts';

export interface CredentialForBind {
  id: string;
  accountId: string;
  systemId: string;
  passwordHash: string;
  allowedIps: string[];
  maxBinds: number;
  tps: number;
  actor: Actor;
}

type Row = ActorRow & { id: string; system_id: string; password_hash: string; allowed_ips: string[]; max_binds: number; tps: number };

// A credential acts as a key holding `send` on its account (and belongs to the user who made it, as keys do); its
// account must be open, exactly as for a key.
const SELECT = sql`
  select c.id, c.system_id, c.password_hash, c.allowed_ips, c.max_binds, c.tps,
         'smpp:' || c.id as key_id, array['send']::text[] as permissions, c.created_by_user as user_id,
         a.id as account_id, a.parent_id, a.business_name, a.abn, ${SUBTREE_STATUS} as account_status,
         a.hierarchy_enabled, a.daily_limit, a.managed_by_parent, a.optout_exempt, a.inherit_parent_senders, a.settings
  from smpp_credentials c join accounts a on a.id = c.account_id ${PARENT_JOIN}`;

const toCredential = (row: Row): CredentialForBind => ({
  id: row.id, accountId: row.account_id, systemId: row.system_id, passwordHash: row.password_hash, allowedIps: row.allowed_ips,
  maxBinds: row.max_binds, tps: row.tps, actor: toActor(row),
});

/** An active credential by the system_id a bind names (system_ids are unique across accounts). */
export async function findCredentialBySystemId(db: Executor, systemId: string): Promise<CredentialForBind | null> {
  const [row] = await rows<Row>(db, sql`${SELECT} where c.system_id = ${systemId} and c.revoked_at is null and ${SUBTREE_OPEN}`);
  return row ? toCredential(row) : null;
}

/** The same, by id: a bound credential's actor read afresh (its account's settings and status may change). */
export async function findCredentialById(db: Executor, id: string): Promise<CredentialForBind | null> {
  const [row] = await rows<Row>(db, sql`${SELECT} where c.id = ${id} and c.revoked_at is null and ${SUBTREE_OPEN}`);
  return row ? toCredential(row) : null;
}

export async function touchCredential(db: Executor, id: string): Promise<void> {
  await db.execute(sql`update smpp_credentials set last_bound_at = now() where id = ${id}`);
}
