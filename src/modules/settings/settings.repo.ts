import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';

/**
 * Merges changed settings into the account's `settings` jsonb (top-level keys replaced, others kept) in one
 * statement, so two concurrent changes of different fields both stand. Returns the stored settings, or null when
 * there is no such account.
 */
export async function mergeAccountSettings(db: Executor, accountId: string, changes: Record<string, unknown>): Promise<unknown> {
  const [row] = await rows<{ settings: unknown }>(db, sql`
    update accounts set settings = settings || ${JSON.stringify(changes)}::jsonb, updated_at = now()
    where id = ${accountId}
    returning settings`);
  return row ? row.settings : null;
}
