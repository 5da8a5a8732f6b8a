import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../platform/db/client.ts';

/** The work queues' sizes for the metrics: queued messages and pending webhook deliveries. */
export async function queueSizes(db: Db): Promise<Array<{ queue: string; depth: number; oldestSeconds: number }>> {
  return rows(db, sql`
    select 'messages' as queue, count(*)::int as depth,
           coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as "oldestSeconds"
      from messages where status = 'queued'
    union all
    select 'webhooks', count(*)::int, coalesce(extract(epoch from now() - min(created_at)), 0)::float8
      from webhook_deliveries where status = 'pending'`);
}

/** The database answers a trivial query. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
