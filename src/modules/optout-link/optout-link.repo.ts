import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';

/**
 * The message an opt-out code was sent with, its account and recipient. The code is the authority (no tenant id
 * to scope by); a message whose content was removed by retention has lost its code.
 */
export async function findByCode(db: Executor, code: string): Promise<{ id: string; accountId: string; recipient: string; businessName: string } | null> {
  const [row] = await rows<{ id: string; accountId: string; recipient: string; businessName: string }>(db, sql`
    select m.id, m.account_id as "accountId", m.recipient, a.business_name as "businessName"
    from messages m join accounts a on a.id = m.account_id
    where m.optout_code = ${code} and m.content_deleted_at is null`);
  return row ?? null;
}
