import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { inboundMessages } from '../../platform/db/schema/index.ts';
import type { TextCoding } from '../../carrier/carrier.ts';
import type { StoredPart } from '../../carrier/text.ts';
import { contactJoin, contactNameOf } from '../contacts/contact-name.ts';

export type InboundRow = typeof inboundMessages.$inferSelect;

// How long the parts of a multi-part MO wait for their siblings before they count as abandoned.
const FRAGMENT_TTL = sql`interval '1 day'`;

/**
 * Stores one part of a concatenated MO and, when it completes the set, removes the set and returns the parts'
 * texts in order; null while parts are still missing. A repeated part is ignored. Run inside a transaction:
 * the advisory lock serialises parts of one message arriving on different connections, so the part that
 * completes the set always sees the others.
 */
export async function storeFragment(
  tx: Executor, f: { from: string; to: string; ref: number; total: number; seq: number; text: string; octets: Buffer; coding: TextCoding; receivedAt: Date },
): Promise<{ parts: StoredPart[]; firstReceivedAt: Date } | null> {
  const key = sql`from_number = ${f.from} and to_number = ${f.to} and ref = ${f.ref}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${f.from}|${f.to}|${f.ref}`}))`);
  // A leftover set under the same reference (a part lost long ago, or another total) is not this message.
  await tx.execute(sql`delete from inbound_fragments where ${key} and (total <> ${f.total} or received_at < now() - ${FRAGMENT_TTL})`);
  await tx.execute(sql`
    insert into inbound_fragments (from_number, to_number, ref, total, seq, text, octets_hex, coding, received_at)
    values (${f.from}, ${f.to}, ${f.ref}, ${f.total}, ${f.seq}, ${f.text}, ${f.octets.toString('hex')}, ${f.coding}, ${f.receivedAt.toISOString()})
    on conflict do nothing`);
  const parts = await rows<{ seq: number; text: string; octets_hex: string | null; coding: TextCoding | null; received_at: Date | string }>(tx, sql`
    select seq, text, octets_hex, coding, received_at from inbound_fragments where ${key} order by seq`);
  if (parts.length < f.total) return null;
  await tx.execute(sql`delete from inbound_fragments where ${key}`);
  const first = parts.reduce((min, p) => Math.min(min, new Date(p.received_at).getTime()), Number.POSITIVE_INFINITY);
  return {
    parts: parts.map((p) => ({ text: p.text, octets: p.octets_hex === null ? null : Buffer.from(p.octets_hex, 'hex'), coding: p.coding })),
    firstReceivedAt: new Date(first),
  };
}

export async function purgeFragments(db: Executor, dedupSeconds = 0): Promise<void> {
  await db.execute(sql`delete from inbound_fragments where received_at < now() - ${FRAGMENT_TTL}`);
  await db.execute(sql`delete from inbound_seen where received_at < now() - make_interval(secs => ${dedupSeconds})`);
}

/**
 * Records that an MO with this fingerprint is being stored; false when one was within the last `seconds` (a
 * resend). A concurrent copy waits on the first's row and then sees it; a copy of one whose transaction rolled
 * back is stored. An older fingerprint is taken over, so the window counts from the latest copy stored.
 */
export async function firstSeen(tx: Executor, fingerprint: string, seconds: number): Promise<boolean> {
  const taken = await rows<{ fingerprint: string }>(tx, sql`
    insert into inbound_seen (fingerprint) values (${fingerprint})
    on conflict (fingerprint) do update set received_at = now()
      where inbound_seen.received_at < now() - make_interval(secs => ${seconds})
    returning fingerprint`);
  return taken.length > 0;
}

/** The account holding a dedicated number. */
export async function holderOf(db: Executor, number: string): Promise<string | null> {
  const [row] = await rows<{ account_id: string }>(db, sql`
    select account_id from numbers where number = ${number} and account_id is not null`);
  return row?.account_id ?? null;
}

/** For a shared number: the account that most recently messaged this person from it. */
export async function lastSenderAccount(db: Executor, person: string, serviceNumber: string): Promise<string | null> {
  const [row] = await rows<{ account_id: string }>(db, sql`
    select account_id from messages where recipient = ${person} and sender = ${serviceNumber}
    order by created_at desc limit 1`);
  return row?.account_id ?? null;
}

/** How far back an opt-out on a shared number reaches: every account that messaged the person from it since. */
export const SHARED_OPTOUT_REACH_DAYS = 30;

/**
 * The accounts other than `except` that messaged this person from the shared number within 30 days before `at`:
 * a STOP (or link opt-out) arriving on a shared number opts the person out for all of them, whoever the reply
 * was routed to (docs/decisions/0016-opt-outs-on-shared-numbers.md).
 */
export async function sharedNumberSenders(db: Executor, person: string, serviceNumber: string, at: Date, except: string): Promise<string[]> {
  const found = await rows<{ account_id: string }>(db, sql`
    select distinct account_id from messages
    where recipient = ${person} and sender = ${serviceNumber} and account_id <> ${except}
      and created_at > ${at.toISOString()}::timestamptz - make_interval(days => ${SHARED_OPTOUT_REACH_DAYS})
      and created_at <= ${at.toISOString()}::timestamptz
    order by account_id`);
  return found.map((r) => r.account_id);
}

/** The latest outbound message from the service number to this person within 7 days of `at`. */
export async function repliedTo(db: Executor, accountId: string, person: string, serviceNumber: string, at: Date): Promise<string | null> {
  const [row] = await rows<{ id: string }>(db, sql`
    select id from messages
    where account_id = ${accountId} and recipient = ${person} and sender = ${serviceNumber}
      and created_at > ${at.toISOString()}::timestamptz - interval '7 days' and created_at <= ${at.toISOString()}::timestamptz
    order by created_at desc limit 1`);
  return row?.id ?? null;
}

export async function insertInbound(db: Executor, row: typeof inboundMessages.$inferInsert): Promise<InboundRow> {
  const [inserted] = await db.insert(inboundMessages).values(row).returning();
  return inserted!;
}

export interface InboxFilter {
  fromPattern: string | null;
  dateFrom: Date | null;
  dateTo: Date | null;
  unreadOnly: boolean;
}

export interface InboxItemRow {
  id: string;
  from_number: string;
  to_number: string;
  body: string | null;
  received_at: Date | string;
  in_reply_to: string | null;
  is_optout: boolean;
  is_optin: boolean;
  reply_to_body: string | null;
  campaign_id: string | null;
  unread: boolean;
  contact_name: string | null;
}

function where(accountId: string, f: InboxFilter): SQL {
  const parts = [sql`i.account_id = ${accountId}`];
  if (f.fromPattern !== null) parts.push(sql`i.from_number like ${f.fromPattern}`);
  if (f.dateFrom) parts.push(sql`i.received_at >= ${f.dateFrom.toISOString()}::timestamptz`);
  if (f.dateTo) parts.push(sql`i.received_at <= ${f.dateTo.toISOString()}::timestamptz`);
  if (f.unreadOnly) parts.push(sql`i.read_at is null`);
  return sql.join(parts, sql` and `);
}

export async function listInbox(db: Executor, accountId: string, f: InboxFilter, limit: number, offset: number): Promise<InboxItemRow[]> {
  return rows<InboxItemRow>(db, sql`
    select i.id, i.from_number, i.to_number, i.body, i.received_at, i.in_reply_to, i.is_optout, i.is_optin, m.body as reply_to_body,
           m.campaign_id, i.read_at is null as unread, ${contactNameOf(sql`c`)} as contact_name
    from inbound_messages i
    left join messages m on m.id = i.in_reply_to and m.account_id = i.account_id
    ${contactJoin(sql`c`, sql`i.account_id`, sql`i.from_number`)}
    where ${where(accountId, f)}
    order by i.received_at desc, i.id desc
    limit ${limit} offset ${offset}`);
}

export async function countInbox(db: Executor, accountId: string, f: InboxFilter): Promise<number> {
  const [row] = await rows<{ n: number | string }>(db, sql`
    select count(*)::int as n from inbound_messages i where ${where(accountId, f)}`);
  return Number(row?.n ?? 0);
}

/** One inbound message of the account (for replying to it); null when missing or another account's. */
export async function findInbound(db: Executor, accountId: string, id: string): Promise<{ from: string; to: string } | null> {
  const [row] = await rows<{ from_number: string; to_number: string }>(db, sql`
    select from_number, to_number from inbound_messages where account_id = ${accountId} and id = ${id}`);
  return row ? { from: row.from_number, to: row.to_number } : null;
}

/** The account's unread inbound messages (inbound_unread_idx), or those from one number. */
export async function countUnread(db: Executor, accountId: string, from?: string): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`
    select count(*)::int as n from inbound_messages
    where account_id = ${accountId} and read_at is null ${from === undefined ? sql`` : sql`and from_number = ${from}`}`);
  return Number(row?.n ?? 0);
}

/**
 * Marks one inbound message read, keeping the time of the first call: null when it is missing or another
 * account's, else how many messages this call changed (0 or 1).
 */
export async function markRead(db: Executor, accountId: string, id: string): Promise<number | null> {
  const [row] = await rows<{ found: number; marked: number }>(db, sql`
    with target as (select id, read_at from inbound_messages where account_id = ${accountId} and id = ${id}),
    changed as (
      update inbound_messages i set read_at = now() from target t where i.id = t.id and t.read_at is null returning i.id)
    select (select count(*) from target)::int as found, (select count(*) from changed)::int as marked`);
  return row && row.found > 0 ? row.marked : null;
}

/** Marks every unread message from this number read; how many were. */
export async function markConversationRead(db: Executor, accountId: string, number: string): Promise<number> {
  const done = await rows<{ id: string }>(db, sql`
    update inbound_messages set read_at = now()
    where account_id = ${accountId} and from_number = ${number} and read_at is null returning id`);
  return done.length;
}

export interface ConversationRow {
  id: string;
  direction: 'inbound' | 'outbound';
  body: string | null;
  at: Date | string;
  status: string;
  unread: boolean;
  service_number: string;
}

/** The latest `limit` messages to and from one number, oldest first (inbound_conversation_idx, messages by recipient). */
export async function conversation(db: Executor, accountId: string, number: string, limit: number): Promise<ConversationRow[]> {
  return rows<ConversationRow>(db, sql`
    select * from (
      (select id, 'outbound' as direction, body, created_at as at, status, false as unread, sender as service_number
       from messages where account_id = ${accountId} and recipient = ${number} order by created_at desc limit ${limit})
      union all
      (select id, 'inbound', body, received_at, 'received', read_at is null, to_number
       from inbound_messages where account_id = ${accountId} and from_number = ${number} order by received_at desc limit ${limit})
      order by at desc, id desc limit ${limit}
    ) latest order by at, id`);
}

/** The name the account gave this number: its contact's, else `name` in the metadata of its latest message that has one. */
export async function contactName(db: Executor, accountId: string, number: string): Promise<string | null> {
  const [row] = await rows<{ name: string | null }>(db, sql`
    select coalesce(
      (select ${contactNameOf()} from contacts where account_id = ${accountId} and phone = ${number}),
      (select metadata ->> 'name' from messages
       where account_id = ${accountId} and recipient = ${number} and metadata ? 'name' order by created_at desc limit 1)) as name`);
  return row?.name ?? null;
}
