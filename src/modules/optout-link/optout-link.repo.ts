import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';

export interface LinkedMessage { id: string; accountId: string; recipient: string; sender: string; businessName: string }

/**
 * The message an opt-out code was sent with, its account and recipient. The code is the authority (no tenant id
 * to scope by); a message whose content was removed by retention has lost its code.
 */
export async function findByCode(db: Executor, code: string): Promise<LinkedMessage | null> {
  const [row] = await rows<LinkedMessage>(db, sql`
    select m.id, m.account_id as "accountId", m.recipient, m.sender, a.business_name as "businessName"
    from messages m join accounts a on a.id = m.account_id
    where m.optout_code = ${code} and m.content_deleted_at is null`);
  return row ?? null;
}
