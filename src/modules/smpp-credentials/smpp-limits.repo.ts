import { sql } from 'drizzle-orm';
import { rows, type Db, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';

/** A bind not renewed for this long no longer counts (its instance died). */
export const BIND_LAPSE_SECONDS = 30;

/** Records a bind if the credential holds fewer than `maxBinds` live ones on every instance; its id, else null. */
export async function insertBind(db: Db, input: { credentialId: string; accountId: string; systemId: string; mode: string; address: string; maxBinds: number }): Promise<string | null> {
  return db.transaction(async (tx) => {
    // Concurrent binds of one credential are counted one after another.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`smpp-binds:${input.credentialId}`}))`);
    await tx.execute(sql`delete from smpp_binds where credential_id = ${input.credentialId} and seen_at < now() - make_interval(secs => ${BIND_LAPSE_SECONDS})`);
    const id = uuidv7();
    const [row] = await rows<{ id: string }>(tx, sql`
      insert into smpp_binds (id, credential_id, account_id, system_id, mode, address)
      select ${id}, ${input.credentialId}, ${input.accountId}, ${input.systemId}, ${input.mode}, ${input.address}
      where (select count(*) from smpp_binds where credential_id = ${input.credentialId}) < ${input.maxBinds}
      returning id`);
    return row?.id ?? null;
  });
}

export async function deleteBind(db: Executor, id: string): Promise<void> {
  await db.execute(sql`delete from smpp_binds where id = ${id}`);
}

/** This instance's binds are alive, with their PDU counts. */
export async function renewBinds(db: Executor, binds: Array<{ id: string; pdusIn: number; pdusOut: number }>): Promise<void> {
  if (binds.length === 0) return;
  await db.execute(sql`
    update smpp_binds b set seen_at = now(), pdus_in = x.pdus_in, pdus_out = x.pdus_out
    from jsonb_to_recordset(${JSON.stringify(binds.map((b) => ({ id: b.id, pdus_in: b.pdusIn, pdus_out: b.pdusOut })))}::jsonb) as x(id uuid, pdus_in bigint, pdus_out bigint)
    where b.id = x.id`);
}

/** One more submit in the credential's current second, if it fits in `tps`; false when it does not. */
export async function takeSubmit(db: Executor, credentialId: string, tps: number, second: number): Promise<boolean> {
  const taken = await rows(db, sql`
    insert into smpp_rates as r (credential_id, second, count) values (${credentialId}, ${second}, 1)
    on conflict (credential_id) do update
      set second = excluded.second, count = case when r.second = excluded.second then r.count + 1 else 1 end
      where r.second <> excluded.second or r.count < ${tps}
    returning count`);
  return taken.length > 0;
}

export interface BindRow {
  id: string;
  credential_id: string;
  account_id: string;
  system_id: string;
  mode: string;
  address: string;
  bound_at: Date;
  seen_at: Date;
  pdus_in: number;
  pdus_out: number;
}

/** Live binds on every instance, newest first; optionally of one account. */
export async function liveBinds(db: Executor, accountId?: string): Promise<BindRow[]> {
  return rows<BindRow>(db, sql`
    select id, credential_id, account_id, system_id, mode, address, bound_at, seen_at, pdus_in::float8 as pdus_in, pdus_out::float8 as pdus_out
    from smpp_binds where seen_at > now() - make_interval(secs => ${BIND_LAPSE_SECONDS})
    ${accountId ? sql`and account_id = ${accountId}` : sql``}
    order by bound_at desc`);
}
