import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { generateCredentialSecret } from './credential-secret.ts';

/** The NOTIFY channel a revocation raises (payload: the credential's id); every SMPP server closes its binds of it. */
export const SMPP_REVOKED_CHANNEL = 'tasman_smpp_revoked';

export interface CredentialRow {
  id: string;
  name: string;
  system_id: string;
  allowed_ips: string[];
  max_binds: number;
  tps: number;
  created_at: Date;
  revoked_at: Date | null;
  last_bound_at: Date | null;
}

const COLUMNS = sql.raw('id, name, system_id, allowed_ips, max_binds, tps, created_at, revoked_at, last_bound_at');

export async function insertCredential(
  db: Executor, accountId: string, input: { name: string; allowedIps: string[]; maxBinds: number; tps: number; createdByUser: string | null },
): Promise<CredentialRow & { password: string }> {
  const { systemId, password, hash } = generateCredentialSecret();
  const [row] = await rows<CredentialRow>(db, sql`
    insert into smpp_credentials (id, account_id, name, system_id, password_hash, allowed_ips, max_binds, tps, created_by_user)
    values (${uuidv7()}, ${accountId}, ${input.name}, ${systemId}, ${hash}, array(select jsonb_array_elements_text(${JSON.stringify(input.allowedIps)}::jsonb)),
            ${input.maxBinds}, ${input.tps}, ${input.createdByUser})
    returning ${COLUMNS}`);
  return { ...row!, password };
}

export async function listCredentials(db: Executor, accountId: string): Promise<CredentialRow[]> {
  return rows<CredentialRow>(db, sql`
    select ${COLUMNS} from smpp_credentials where account_id = ${accountId} order by created_at desc, id desc`);
}

export async function credentialExists(db: Executor, accountId: string, id: string): Promise<boolean> {
  const found = await rows(db, sql`select 1 from smpp_credentials where account_id = ${accountId} and id = ${id}`);
  return found.length > 0;
}

/** Revokes an active credential and tells every SMPP server (on commit); false when there is no such active one. */
export async function revokeCredential(db: Executor, accountId: string, id: string): Promise<boolean> {
  const done = await rows<{ id: string }>(db, sql`
    update smpp_credentials set revoked_at = now()
    where account_id = ${accountId} and id = ${id} and revoked_at is null returning id`);
  if (done.length === 0) return false;
  await db.execute(sql`select pg_notify(${SMPP_REVOKED_CHANNEL}, ${id})`);
  return true;
}
