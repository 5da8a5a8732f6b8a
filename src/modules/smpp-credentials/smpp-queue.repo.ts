import { sql } from 'drizzle-orm';
import { rows, type Db, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { EsmeAddress, EsmeDelivery, EsmeReceiptState, QueuedDelivery } from '../../carrier/esme-port.ts';
import type { CustomerPart } from '../../carrier/carrier.ts';

/** NOTIFY channel raised with a credential's id when a delivery is queued for it: the instance holding its bind wakes. */
export const SMPP_QUEUED_CHANNEL = 'tasman_smpp_deliveries';
/** How long a claimed batch is held before another instance may take it (a crashed holder's). */
const CLAIM_SECONDS = 60;

/** In the send's transaction: the message goes back as a receipt to the ESME that submitted it. */
export async function insertSubmit(tx: Executor, input: { messageId: string; credentialId: string; accountId: string; source: EsmeAddress; destination: EsmeAddress }): Promise<void> {
  await tx.execute(sql`
    insert into smpp_submits (message_id, credential_id, account_id, source, destination)
    values (${input.messageId}, ${input.credentialId}, ${input.accountId}, ${JSON.stringify(input.source)}::jsonb, ${JSON.stringify(input.destination)}::jsonb)`);
}

/** In the send's transaction: the message is one part of the customer's long message, sent with these fields. */
export async function insertPart(tx: Executor, messageId: string, part: CustomerPart): Promise<void> {
  await tx.execute(sql`
    insert into smpp_parts (message_id, form, ref, total, seq) values (${messageId}, ${part.form}, ${part.ref}, ${part.total}, ${part.seq})`);
}

/** What a message with its outcome tells its receipt (the receipt service's rows). */
export interface FinalMessage {
  id: string;
  dlrStatus: string | null;
  dlrErrorCode: string | null;
  dlrReceivedAt: Date | null;
  createdAt: Date;
  body: string | null;
}

const STATES = new Set<EsmeReceiptState>(['delivered', 'undelivered', 'expired', 'rejected', 'deleted', 'unknown']);

async function queue(tx: Executor, items: Array<{ credentialId: string; accountId: string; kind: EsmeDelivery['kind']; messageId: string; body: EsmeDelivery }>): Promise<void> {
  if (items.length === 0) return;
  const input = items.map((i) => ({ id: uuidv7(), credential_id: i.credentialId, account_id: i.accountId, kind: i.kind, message_id: i.messageId, body: i.body }));
  await tx.execute(sql`
    insert into smpp_deliveries (id, credential_id, account_id, kind, message_id, body)
    select id, credential_id, account_id, kind, message_id, body
    from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as x(id uuid, credential_id uuid, account_id uuid, kind text, message_id uuid, body jsonb)`);
  for (const credentialId of new Set(items.map((i) => i.credentialId))) {
    await tx.execute(sql`select pg_notify(${SMPP_QUEUED_CHANNEL}, ${credentialId})`);
  }
}

/**
 * In the transaction that gives messages their outcome: the ones an ESME submitted asking for a receipt are taken
 * from smpp_submits and their receipts queued. Messages sent any other way find no row: one index probe each.
 */
export async function queueReceipts(tx: Executor, finals: FinalMessage[]): Promise<void> {
  if (finals.length === 0) return;
  const taken = await rows<{ message_id: string; credential_id: string; account_id: string; source: EsmeAddress; destination: EsmeAddress }>(tx, sql`
    delete from smpp_submits where message_id in (select jsonb_array_elements_text(${JSON.stringify(finals.map((f) => f.id))}::jsonb)::uuid)
    returning message_id, credential_id, account_id, source, destination`);
  if (taken.length === 0) return;
  const byId = new Map(finals.map((f) => [f.id, f]));
  await queue(tx, taken.map((s) => {
    const m = byId.get(s.message_id)!;
    const state = STATES.has(m.dlrStatus as EsmeReceiptState) ? m.dlrStatus as EsmeReceiptState : 'unknown';
    return {
      credentialId: s.credential_id, accountId: s.account_id, kind: 'receipt' as const, messageId: s.message_id,
      // The receipt comes from the handset (the submit's destination) to the ESME's source address.
      body: {
        kind: 'receipt', messageId: s.message_id, from: s.destination, to: s.source, state, errorCode: m.dlrErrorCode,
        submittedAt: new Date(m.createdAt).toISOString(), doneAt: new Date(m.dlrReceivedAt ?? Date.now()).toISOString(), text: m.body ?? '',
      },
    };
  }));
}

/**
 * The receipts no receipt transaction queued: messages that ended another way (refused by the carrier at submit,
 * expired without a receipt, given up, cancelled while scheduled) are found by their outcome and queued here.
 * smpp_submits holds only receipts still owed, so the join stays small.
 */
export async function queueEndedReceipts(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await rows<{ id: string; status: string; dlr_status: string | null; dlr_error_code: string | null; error_code: string | null; dlr_received_at: Date | null; created_at: Date; body: string | null }>(tx, sql`
      select m.id, m.status, m.dlr_status, m.dlr_error_code, m.error_code, m.dlr_received_at, m.created_at, m.body
      from smpp_submits s join messages m on m.id = s.message_id
      where m.dlr_status is not null or m.status in ('failed', 'cancelled')
      limit 1000
      for update of s skip locked`);
    await queueReceipts(tx, ended.map((m) => ({
      id: m.id, dlrStatus: m.dlr_status ?? (m.status === 'cancelled' ? 'deleted' : 'undelivered'), dlrErrorCode: m.dlr_error_code ?? m.error_code,
      dlrReceivedAt: m.dlr_received_at, createdAt: m.created_at, body: m.body,
    })));
    return ended.length;
  });
}

const address = (value: string): EsmeAddress =>
  (/^\+\d+$/.test(value) ? { addr: value.slice(1), ton: 1, npi: 1 } : /^\d+$/.test(value) ? { addr: value, ton: 0, npi: 1 } : { addr: value, ton: 5, npi: 0 });

/**
 * In the transaction that stores an inbound message: it goes to the account's credential that bound most recently
 * (an account with several SMPP platforms gets each MO once, on the one it last connected).
 */
export async function queueInbound(tx: Executor, row: { id: string; accountId: string; from: string; to: string; body: string }): Promise<void> {
  const [credential] = await rows<{ id: string }>(tx, sql`
    select id from smpp_credentials
    where account_id = ${row.accountId} and revoked_at is null and last_bound_at is not null
    order by last_bound_at desc limit 1`);
  if (!credential) return;
  await queue(tx, [{
    credentialId: credential.id, accountId: row.accountId, kind: 'inbound', messageId: row.id,
    body: { kind: 'inbound', messageId: row.id, from: address(row.from), to: address(row.to), text: row.body },
  }]);
}

/**
 * Claims the credential's oldest deliveries, in order. One holder at a time per credential (whichever instance
 * claims first; the advisory lock orders concurrent claims), so the ESME gets them in the order they were queued.
 */
export async function claimDeliveries(db: Db, credentialId: string, token: string, limit: number, maxAgeHours: number): Promise<QueuedDelivery[]> {
  const claimed = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`smpp:${credentialId}`}))`);
    return rows<{ id: string; body: EsmeDelivery }>(tx, sql`
      update smpp_deliveries set claim_token = ${token}, claimed_until = now() + make_interval(secs => ${CLAIM_SECONDS})
      where id in (
        select id from smpp_deliveries
        where credential_id = ${credentialId} and created_at > now() - make_interval(hours => ${maxAgeHours})
          and not exists (select 1 from smpp_deliveries o
                          where o.credential_id = ${credentialId} and o.claimed_until > now() and o.claim_token <> ${token})
        order by id limit ${limit})
      returning id, body`);
  });
  return claimed.sort((a, b) => (a.id < b.id ? -1 : 1)).map((r) => ({ id: r.id, delivery: r.body }));
}

/** The ESME answered deliver_sm_resp OK: the deliveries are done. */
export async function deleteDeliveries(db: Executor, ids: string[], token: string): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`delete from smpp_deliveries where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid) and claim_token = ${token}`);
}

/** Not delivered (the bind closed, the ESME refused): back to the queue at once, in their place. */
export async function releaseDeliveries(db: Executor, ids: string[], token: string): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    update smpp_deliveries set claim_token = null, claimed_until = null
    where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid) and claim_token = ${token}`);
}

/** Deliveries no bind took within SMPP_SERVER_QUEUE_HOURS, and submits whose outcome never came, are dropped. */
export async function purgeSmppQueue(db: Executor, maxAgeHours: number): Promise<number> {
  const gone = await rows<{ n: number }>(db, sql`
    with d as (delete from smpp_deliveries where created_at < now() - make_interval(hours => ${maxAgeHours}) returning 1),
         s as (delete from smpp_submits where created_at < now() - make_interval(hours => ${maxAgeHours}) - interval '100 days' returning 1),
         p as (delete from smpp_parts where created_at < now() - interval '100 days' returning 1)
    select (select count(*) from d)::int + (select count(*) from s)::int + (select count(*) from p)::int as n`);
  return gone[0]?.n ?? 0;
}

/** Queued deliveries per account (the metric and the operator's list). */
export async function queuedDeliveries(db: Executor): Promise<Array<{ account_id: string; queued: number }>> {
  return rows(db, sql`select account_id, count(*)::int as queued from smpp_deliveries group by account_id`);
}

/** Live binds and queued deliveries per account, in one query (the scrape-time gauges). */
export async function smppServerGauges(db: Executor): Promise<Array<{ account: string; binds: number; queued: number }>> {
  return rows(db, sql`
    select account_id as account, sum(binds)::int as binds, sum(queued)::int as queued from (
      select account_id, count(*) as binds, 0 as queued from smpp_binds where seen_at > now() - interval '30 seconds' group by account_id
      union all
      select account_id, 0, count(*) from smpp_deliveries group by account_id) x
    group by account_id`);
}
