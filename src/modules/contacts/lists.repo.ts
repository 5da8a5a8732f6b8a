import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';

// Tenant queries for contact lists and their members. Every function takes the account id first; a member is
// added only when the contact is the same account's.

export interface ListRow { id: string; name: string; contact_count: number; created_at: Date | string; updated_at: Date | string }

const SELECT = sql`
  select l.id, l.name, l.created_at, l.updated_at,
         (select count(*)::int from contact_list_members m where m.list_id = l.id) as contact_count
  from contact_lists l`;

export async function insertList(db: Executor, accountId: string, name: string): Promise<string> {
  const id = uuidv7();
  await db.execute(sql`insert into contact_lists (id, account_id, name) values (${id}, ${accountId}, ${name})`);
  return id;
}

export async function findList(db: Executor, accountId: string, id: string): Promise<ListRow | null> {
  const [row] = await rows<ListRow>(db, sql`${SELECT} where l.account_id = ${accountId} and l.id = ${id}`);
  return row ?? null;
}

export const listLists = (db: Executor, accountId: string) => rows<ListRow>(db, sql`${SELECT} where l.account_id = ${accountId} order by l.id`);

export async function renameList(db: Executor, accountId: string, id: string, name: string): Promise<boolean> {
  return (await rows(db, sql`update contact_lists set name = ${name}, updated_at = now() where account_id = ${accountId} and id = ${id} returning id`)).length > 0;
}

/** Deletes the list and its memberships; the contacts stay. */
export async function deleteList(db: Executor, accountId: string, id: string): Promise<boolean> {
  return (await rows(db, sql`delete from contact_lists where account_id = ${accountId} and id = ${id} returning id`)).length > 0;
}

/** The ids of `listIds` that are lists of the account. */
export async function ownLists(db: Executor, accountId: string, listIds: string[]): Promise<string[]> {
  if (listIds.length === 0) return [];
  return (await rows<{ id: string }>(db, sql`
    select id from contact_lists where account_id = ${accountId} and id in (select jsonb_array_elements_text(${JSON.stringify(listIds)}::jsonb)::uuid)`)).map((r) => r.id);
}

/** Adds the account's contacts among `contactIds` to the list (an own list); answers how many were new to it. */
export async function addMembers(db: Executor, accountId: string, listId: string, contactIds: string[]): Promise<number> {
  const done = await rows(db, sql`
    insert into contact_list_members (list_id, contact_id)
    select ${listId}, c.id from contacts c
    where c.account_id = ${accountId} and c.id in (select jsonb_array_elements_text(${JSON.stringify(contactIds)}::jsonb)::uuid)
    on conflict do nothing returning contact_id`);
  return done.length;
}

export async function removeMembers(db: Executor, accountId: string, listId: string, contactIds: string[]): Promise<number> {
  const done = await rows(db, sql`
    delete from contact_list_members m using contact_lists l
    where l.id = m.list_id and l.account_id = ${accountId} and m.list_id = ${listId}
      and m.contact_id in (select jsonb_array_elements_text(${JSON.stringify(contactIds)}::jsonb)::uuid)
    returning m.contact_id`);
  return done.length;
}

/**
 * A list's contacts as a send reads them: the number, and the merge fields first_name, last_name, email and the
 * custom fields (the ones the contact has), in the order they were added to the account; null when the list is
 * not the account's.
 */
export async function listSendRecipients(db: Executor, accountId: string, listId: string): Promise<Array<{ phone: string; merge_data: Record<string, string> }> | null> {
  if ((await ownLists(db, accountId, [listId])).length === 0) return null;
  const found = await rows<{ phone: string; merge_data: Record<string, string> }>(db, sql`
    select c.phone, jsonb_strip_nulls(jsonb_build_object('first_name', c.first_name, 'last_name', c.last_name, 'email', c.email)) || c.fields as merge_data
    from contact_list_members m join contacts c on c.id = m.contact_id
    where c.account_id = ${accountId} and m.list_id = ${listId} order by c.id`);
  return found;
}
