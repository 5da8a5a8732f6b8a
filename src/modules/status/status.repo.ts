import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';

/** How long the oldest message due for submission has waited, in ms (0 when none is due). */
export async function oldestDueAgeMs(db: Executor): Promise<number> {
  const [ages] = await rows<{ queue_age_ms: number | null }>(db, sql`
    select (extract(epoch from now() - min(next_attempt_at)) * 1000)::float8 as queue_age_ms from messages
    where status = 'queued' and next_attempt_at <= now() and (lease_until is null or lease_until < now())`);
  return ages?.queue_age_ms ?? 0;
}
