import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';

// Tenant queries for message templates. Every function takes the account id first.

export interface TemplateRow { id: string; name: string; body: string; created_at: Date | string; updated_at: Date | string }

const COLUMNS = sql.raw('id, name, body, created_at, updated_at');

export async function insertTemplate(db: Executor, accountId: string, t: { name: string; body: string }): Promise<TemplateRow> {
  const [row] = await rows<TemplateRow>(db, sql`
    insert into templates (id, account_id, name, body) values (${uuidv7()}, ${accountId}, ${t.name}, ${t.body}) returning ${COLUMNS}`);
  return row!;
}

export async function findTemplate(db: Executor, accountId: string, id: string): Promise<TemplateRow | null> {
  const [row] = await rows<TemplateRow>(db, sql`select ${COLUMNS} from templates where account_id = ${accountId} and id = ${id}`);
  return row ?? null;
}

export const listTemplates = (db: Executor, accountId: string) =>
  rows<TemplateRow>(db, sql`select ${COLUMNS} from templates where account_id = ${accountId} order by id`);

export async function updateTemplate(db: Executor, accountId: string, id: string, t: { name?: string; body?: string }): Promise<TemplateRow | null> {
  const [row] = await rows<TemplateRow>(db, sql`
    update templates set name = coalesce(${t.name ?? null}, name), body = coalesce(${t.body ?? null}, body), updated_at = now()
    where account_id = ${accountId} and id = ${id} returning ${COLUMNS}`);
  return row ?? null;
}

export async function deleteTemplate(db: Executor, accountId: string, id: string): Promise<boolean> {
  return (await rows(db, sql`delete from templates where account_id = ${accountId} and id = ${id} returning id`)).length > 0;
}
