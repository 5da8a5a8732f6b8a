import { and, desc, eq, getTableColumns, ilike, like, lt, lte, or, sql, gte, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.ts';
import { contacts, messageSearch, messages } from '../../platform/db/schema/index.ts';
import { contactNameOf } from '../contacts/contact-name.ts';
import type { MessageRow } from './messages.repo.ts';
import { POSITION_FORMAT, type ListPosition } from '../../platform/http/keyset-cursor.ts';

export interface MessageFilter {
  status: string | null;
  /** a whole number (E.164): equality, served by the conversation index */
  recipient: string | null;
  /** part of a number, as a LIKE pattern */
  recipientPattern: string | null;
  campaignId: string | null;
  sender: string | null;
  dateFrom: Date | null;
  dateTo: Date | null;
  /** body contains, as an ILIKE pattern (only bodies still retained can match) */
  bodyPattern: string | null;
  after: ListPosition | null;
}

// The position of a row, at PostgreSQL's microsecond precision (see platform/http/keyset-cursor.ts).
const position = sql<string>`to_char(${messages.createdAt} at time zone 'UTC', ${sql.raw(`'${POSITION_FORMAT}'`)})`;

/**
 * One page of an account's messages, newest first, plus one more row to tell whether another page follows.
 * The order is (created_at desc, id desc): messages_report_idx (account_id, created_at, …) walks it backwards
 * from the cursor with no sort beyond ties, and stops after `limit + 1` matches. The cursor condition is written
 * as a range on created_at (usable by the index) refined by id, rather than a row comparison the index could not
 * use. status=failed and status=cancelled use small partial indexes instead. The recipient's contact name is joined.
 */
export async function listMessages(
  db: Executor, accountId: string, f: MessageFilter, limit: number,
): Promise<Array<MessageRow & { position: string; contactName: string | null }>> {
  const m = messages;
  const where: Array<SQL | undefined> = [eq(m.accountId, accountId)];
  if (f.status !== null) where.push(eq(m.status, f.status));
  if (f.recipient !== null) where.push(eq(m.recipient, f.recipient));
  if (f.recipientPattern !== null) where.push(like(m.recipient, f.recipientPattern));
  if (f.campaignId !== null) where.push(eq(m.campaignId, f.campaignId));
  if (f.sender !== null) where.push(sql`lower(${m.sender}) = lower(${f.sender})`);
  if (f.dateFrom) where.push(gte(m.createdAt, f.dateFrom));
  if (f.dateTo) where.push(lte(m.createdAt, f.dateTo));
  if (f.bodyPattern !== null) where.push(ilike(m.body, f.bodyPattern));
  const search = searchCondition(accountId, f);
  if (search) where.push(search);
  if (f.after) {
    const at = sql`${f.after.createdAt}::timestamptz`;
    where.push(sql`${m.createdAt} <= ${at}`, or(sql`${m.createdAt} < ${at}`, lt(m.id, f.after.id)));
  }
  // The recipient's contact is joined per row of the page (contacts_phone_idx), after the limit's walk.
  return db.select({ ...getTableColumns(m), position, contactName: contactNameOf() }).from(m)
    .leftJoin(contacts, and(eq(contacts.accountId, m.accountId), eq(contacts.phone, m.recipient)))
    .where(and(...where))
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(limit + 1);
}

/**
 * A number fragment, a text or a Sender ID also as a lookup in message_search (decision 0087): when the filter
 * matches few messages the planner takes the matching ids from its GIN index instead of walking the account; when it
 * matches often it keeps walking messages_report_idx, filtering on the message's own columns (kept in the WHERE for
 * that), and probes message_search's primary key for the rows that pass.
 */
function searchCondition(accountId: string, f: MessageFilter): SQL | undefined {
  const s = messageSearch;
  const match: SQL[] = [];
  if (f.recipientPattern !== null) match.push(like(s.recipient, f.recipientPattern));
  if (f.sender !== null) match.push(sql`lower(${s.sender}) = lower(${f.sender})`);
  if (f.bodyPattern !== null) match.push(ilike(s.body, f.bodyPattern));
  if (match.length === 0) return undefined;
  return sql`${messages.id} in (select ${s.messageId} from ${s} where ${and(eq(s.accountId, accountId), ...match)})`;
}
