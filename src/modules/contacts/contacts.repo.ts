import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { ImportedContact } from './import.ts';

// Tenant queries for contacts. Every function takes the account id first. Whether a contact opted out is read
// from `optouts` each time (never stored here), and list membership from `contact_list_members`.

export interface ContactRow {
  id: string;
  phone: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  fields: Record<string, string>;
  lists: string[];
  opted_out: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

const SELECT = sql`
  select c.id, c.phone, c.first_name, c.last_name, c.email, c.fields, c.created_at, c.updated_at,
         coalesce((select array_agg(m.list_id order by m.list_id) from contact_list_members m where m.contact_id = c.id), '{}') as lists,
         exists (select 1 from optouts o where o.account_id = c.account_id and o.number = c.phone) as opted_out
  from contacts c`;

export async function findContact(db: Executor, accountId: string, id: string): Promise<ContactRow | null> {
  const [row] = await rows<ContactRow>(db, sql`${SELECT} where c.account_id = ${accountId} and c.id = ${id}`);
  return row ?? null;
}

/** A page in id order (UUID v7: the order they were added), after `after`, filtered by text and list. */
export async function listContacts(
  db: Executor, accountId: string, q: { text?: string; digits?: string; listId?: string; after?: string; limit: number },
): Promise<ContactRow[]> {
  const where: SQL[] = [sql`c.account_id = ${accountId}`];
  if (q.after) where.push(sql`c.id > ${q.after}`);
  if (q.listId) where.push(sql`exists (select 1 from contact_list_members m where m.list_id = ${q.listId} and m.contact_id = c.id)`);
  if (q.text) {
    const like = `%${q.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const byNumber = q.digits ? sql` or c.phone like ${`%${q.digits}%`}` : sql``;
    where.push(sql`(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '') ilike ${like}${byNumber})`);
  }
  return rows<ContactRow>(db, sql`${SELECT} where ${sql.join(where, sql` and `)} order by c.id limit ${q.limit}`);
}

export interface ContactValues { phone: string; firstName: string | null; lastName: string | null; email: string | null; fields: Record<string, string> }

/** Inserts the contact; null when the account already has one with that number. */
export async function insertContact(db: Executor, accountId: string, c: ContactValues): Promise<string | null> {
  const [row] = await rows<{ id: string }>(db, sql`
    insert into contacts (id, account_id, phone, first_name, last_name, email, fields)
    values (${uuidv7()}, ${accountId}, ${c.phone}, ${c.firstName}, ${c.lastName}, ${c.email}, ${JSON.stringify(c.fields)}::jsonb)
    on conflict (account_id, phone) do nothing returning id`);
  return row?.id ?? null;
}

export async function updateContact(db: Executor, accountId: string, id: string, c: Partial<ContactValues>): Promise<boolean> {
  const sets: SQL[] = [sql`updated_at = now()`];
  if (c.phone !== undefined) sets.push(sql`phone = ${c.phone}`);
  if (c.firstName !== undefined) sets.push(sql`first_name = ${c.firstName}`);
  if (c.lastName !== undefined) sets.push(sql`last_name = ${c.lastName}`);
  if (c.email !== undefined) sets.push(sql`email = ${c.email}`);
  if (c.fields !== undefined) sets.push(sql`fields = ${JSON.stringify(c.fields)}::jsonb`);
  const done = await rows(db, sql`update contacts set ${sql.join(sets, sql`, `)} where account_id = ${accountId} and id = ${id} returning id`);
  return done.length > 0;
}

/** Deletes the contact and its list memberships; its opt-out, if any, stays (the record the law asks for). */
export async function deleteContact(db: Executor, accountId: string, id: string): Promise<boolean> {
  const done = await rows(db, sql`delete from contacts where account_id = ${accountId} and id = ${id} returning id`);
  return done.length > 0;
}

/**
 * Creates or updates contacts by number, in one statement per chunk: a row's empty columns keep what the contact
 * had, its custom fields are merged over the contact's. Answers how many were new and which ids they all have.
 */
export async function upsertContacts(db: Executor, accountId: string, found: ImportedContact[]): Promise<{ created: number; ids: string[] }> {
  let created = 0;
  const ids: string[] = [];
  for (let i = 0; i < found.length; i += 1000) {
    const chunk = found.slice(i, i + 1000).map((c) => ({ id: uuidv7(), phone: c.phone, first_name: c.firstName, last_name: c.lastName, email: c.email, fields: c.fields }));
    const done = await rows<{ id: string; inserted: boolean }>(db, sql`
      insert into contacts (id, account_id, phone, first_name, last_name, email, fields)
      select r.id, ${accountId}, r.phone, r.first_name, r.last_name, r.email, coalesce(r.fields, '{}'::jsonb)
      from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as r(id uuid, phone text, first_name text, last_name text, email text, fields jsonb)
      on conflict (account_id, phone) do update set
        first_name = coalesce(excluded.first_name, contacts.first_name), last_name = coalesce(excluded.last_name, contacts.last_name),
        email = coalesce(excluded.email, contacts.email), fields = contacts.fields || excluded.fields, updated_at = now()
      returning id, (xmax = 0) as inserted`);
    for (const r of done) { ids.push(r.id); if (r.inserted) created += 1; }
  }
  return { created, ids };
}

export async function countOptedOut(db: Executor, accountId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await rows<{ n: number }>(db, sql`
    select count(*)::int as n from contacts c join optouts o on o.account_id = c.account_id and o.number = c.phone
    where c.account_id = ${accountId} and c.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`);
  return row!.n;
}
