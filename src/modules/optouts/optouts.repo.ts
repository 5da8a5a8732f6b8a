import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { cancelScheduled } from '../scheduling/schedule.repo.ts';
import { POSITION_FORMAT, type ListPosition } from '../../platform/http/keyset-cursor.ts';
import { contactJoin, contactNameOf } from '../contacts/contact-name.ts';

/** keyword: a reply (STOP…, or START… for an opt-in); link: the one-tap page; api: POST/DELETE /optouts. */
export type OptoutSource = 'keyword' | 'link' | 'api';

/** Where an opt-out or opt-in came from, kept in the audit. */
export interface OptoutOrigin {
  rawText?: string | null;
  inboundMessageId?: string | null;
  /** the outbound message it answered */
  messageId?: string | null;
  /** who did it by hand: the signed-in user, or the API key (an opt-out removed by hand must be accounted for) */
  actorUserId?: string | null;
  actorKeyId?: string | null;
}

const auditRow = (action: 'optout' | 'optin', source: OptoutSource, o: OptoutOrigin, from: SQL) => sql`
  insert into optout_events (id, account_id, number, action, source, raw_text, inbound_message_id, message_id, actor_user_id, actor_key_id)
  select ${uuidv7()}, account_id, number, ${action}, ${source}, ${o.rawText ?? null}, ${o.inboundMessageId ?? null}::uuid, ${o.messageId ?? null}::uuid,
         ${o.actorUserId ?? null}::uuid, ${o.actorKeyId ?? null}::uuid
  from ${from}
  returning 1`;

/**
 * Records an opt-out, and its audit row in the same statement; a number already on the list keeps its first
 * date and writes nothing. Returns true when newly added.
 */
export async function addOptout(db: Executor, accountId: string, number: string, source: OptoutSource, origin: OptoutOrigin = {}): Promise<boolean> {
  const added = await rows(db, sql`
    with ins as (
      insert into optouts (account_id, number, source, inbound_message_id, message_id)
      values (${accountId}, ${number}, ${source}, ${origin.inboundMessageId ?? null}::uuid, ${origin.messageId ?? null}::uuid)
      on conflict do nothing
      returning account_id, number
    )
    ${auditRow('optout', source, origin, sql`ins`)}`);
  // Whatever was scheduled to this number is not sent: cancelled and refunded (also when it was already listed,
  // since sends to a listed number are refused anyway and nothing should be waiting for it).
  await cancelScheduled(db, accountId, { recipient: number }, 'opted_out');
  return added.length > 0;
}

/** Removes an opt-out, keeping an `optin` audit row (same statement). Returns false when it was not listed. */
export async function removeOptout(db: Executor, accountId: string, number: string, source: OptoutSource, origin: OptoutOrigin = {}): Promise<boolean> {
  const removed = await rows(db, sql`
    with del as (
      delete from optouts where account_id = ${accountId} and number = ${number}
      returning account_id, number
    )
    ${auditRow('optin', source, origin, sql`del`)}`);
  return removed.length > 0;
}

export interface OptoutRow {
  number: string;
  source: string;
  created_at: Date | string;
  position: string;
  inbound_message_id: string | null;
  message_id: string | null;
  inbound_body: string | null;
  contact_name: string | null;
}

/** The account's opt-outs newest first on (created_at, number); a page after `after` when given. */
export async function listOptouts(
  db: Executor, accountId: string, page: { limit: number | null; after: ListPosition | null; number?: string },
): Promise<OptoutRow[]> {
  const after = page.after
    ? sql`and o.created_at <= ${page.after.createdAt}::timestamptz and (o.created_at < ${page.after.createdAt}::timestamptz or o.number < ${page.after.id})`
    : sql``;
  return rows<OptoutRow>(db, sql`
    select o.number, o.source, o.created_at, o.inbound_message_id, o.message_id, i.body as inbound_body,
           ${contactNameOf(sql`c`)} as contact_name,
           to_char(o.created_at at time zone 'UTC', ${sql.raw(`'${POSITION_FORMAT}'`)}) as position
    from optouts o
    left join inbound_messages i on i.id = o.inbound_message_id and i.account_id = o.account_id
    ${contactJoin(sql`c`, sql`o.account_id`, sql`o.number`)}
    where o.account_id = ${accountId} ${after} ${page.number === undefined ? sql`` : sql`and o.number = ${page.number}`}
    order by o.created_at desc, o.number desc
    ${page.limit === null ? sql`` : sql`limit ${page.limit + 1}`}`);
}

export interface OptoutEventRow {
  number: string;
  action: string;
  source: string;
  raw_text: string | null;
  created_at: Date | string;
  inbound_message_id: string | null;
  message_id: string | null;
}

/** The whole audit of an account, oldest first. */
export async function optoutEvents(db: Executor, accountId: string): Promise<OptoutEventRow[]> {
  return rows<OptoutEventRow>(db, sql`
    select number, action, source, raw_text, created_at, inbound_message_id, message_id
    from optout_events where account_id = ${accountId}
    order by created_at, id`);
}
