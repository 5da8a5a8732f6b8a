import { sql } from 'drizzle-orm';
import { DEFAULT_CARRIER } from '../../carrier/carrier.ts';
import { rows, type Executor } from '../../platform/db/client.ts';

/**
 * Sent messages still waiting for their final receipt, by carrier and bind: the operator's view of receipts that
 * are late or never coming. Service-wide (every account), read on the partial index of sent messages.
 */
export async function receiptsWaiting(db: Executor): Promise<Array<{ carrier: string; bind: number | null; waiting: number }>> {
  const found = await rows<{ carrier: string; bind: number | null; waiting: string }>(db, sql`
    select coalesce(smsc_carrier, ${DEFAULT_CARRIER}) as carrier, smsc_bind as bind, count(*) as waiting
    from messages where status = 'sent'
    group by 1, 2`);
  return found.map((r) => ({ carrier: r.carrier, bind: r.bind, waiting: Number(r.waiting) }));
}
