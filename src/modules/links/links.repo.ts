import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import type { NewLink } from './shorten.ts';

export interface LinkRow {
  code: string;
  url: string | null;
  clicks: number;
  firstClickedAt: Date | null;
  lastClickedAt: Date | null;
}

/** A counted click and what its message.click event says. */
export interface ClickRow extends LinkRow {
  url: string;
  accountId: string;
  messageId: string;
  recipient: string;
  metadata: Record<string, string> | null;
}

const asDate = (v: Date | string | null) => (v === null || v instanceof Date ? v : new Date(v));

/**
 * The links of a batch's messages, one statement (the batch transaction's; /send writes its links in its own
 * statement, single-send.repo.ts). Called only when some message has links.
 */
export async function insertLinks(db: Executor, accountId: string, messages: Array<{ messageId: string; links: NewLink[] }>): Promise<void> {
  const flat = messages.flatMap((m) => m.links.map((l) => ({ code: l.code, message_id: m.messageId, position: l.position, url: l.url })));
  if (flat.length === 0) return;
  await db.execute(sql`
    insert into message_links (code, account_id, message_id, position, url)
    select l.code, ${accountId}, l.message_id, l.position, l.url
    from jsonb_to_recordset(${JSON.stringify(flat)}::jsonb) as l(code text, message_id uuid, position smallint, url text)`);
}

/**
 * Where a code leads, without counting (link previewers, HEAD). The code is the authority, as for opt-out links;
 * a link whose message is past retention has lost its URL and leads nowhere.
 */
export async function linkTarget(db: Executor, code: string): Promise<string | null> {
  const [row] = await rows<{ url: string }>(db, sql`select url from message_links where code = ${code} and url is not null`);
  return row?.url ?? null;
}

/** Counts one click on the code (first and last click times) and answers what the click event needs. */
export async function countClick(db: Executor, code: string, at: Date): Promise<ClickRow | null> {
  const [row] = await rows<ClickRow>(db, sql`
    update message_links l
    set clicks = l.clicks + 1,
        first_clicked_at = coalesce(l.first_clicked_at, ${at.toISOString()}::timestamptz),
        last_clicked_at = ${at.toISOString()}::timestamptz
    from messages m
    where l.code = ${code} and l.url is not null and m.id = l.message_id and m.account_id = l.account_id
    returning l.code, l.url, l.clicks, l.first_clicked_at as "firstClickedAt", l.last_clicked_at as "lastClickedAt",
              l.account_id as "accountId", l.message_id as "messageId", m.recipient, m.metadata`);
  return row ? { ...row, firstClickedAt: asDate(row.firstClickedAt), lastClickedAt: asDate(row.lastClickedAt) } : null;
}

/** An array parameter as PostgreSQL's literal (uuids need no quoting): drizzle would spread a JS array. */
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/** The links of several messages (their account's), each message's in text order. */
export async function linksOfMessages(db: Executor, messages: ReadonlyArray<{ id: string; accountId: string }>): Promise<Array<LinkRow & { messageId: string }>> {
  const found = await rows<LinkRow & { messageId: string }>(db, sql`
    select l.message_id as "messageId", l.code, l.url, l.clicks, l.first_clicked_at as "firstClickedAt", l.last_clicked_at as "lastClickedAt"
    from message_links l
    join unnest(${uuidArray(messages.map((m) => m.accountId))}::uuid[], ${uuidArray(messages.map((m) => m.id))}::uuid[]) as m(account_id, id)
      on l.account_id = m.account_id and l.message_id = m.id
    order by l.message_id, l.position`);
  return found.map((r) => ({ ...r, firstClickedAt: asDate(r.firstClickedAt), lastClickedAt: asDate(r.lastClickedAt) }));
}

/** A message's links in the order they appear in its text. */
export async function linksOfMessage(db: Executor, accountId: string, messageId: string): Promise<LinkRow[]> {
  const found = await rows<LinkRow>(db, sql`
    select code, url, clicks, first_clicked_at as "firstClickedAt", last_clicked_at as "lastClickedAt"
    from message_links where account_id = ${accountId} and message_id = ${messageId}
    order by position`);
  return found.map((r) => ({ ...r, firstClickedAt: asDate(r.firstClickedAt), lastClickedAt: asDate(r.lastClickedAt) }));
}
