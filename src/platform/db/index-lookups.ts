import { sql } from 'drizzle-orm';
import type { Executor } from './client.ts';

// Batch writes that find their rows by key (the dispatcher's `sent` records, a receipt batch) run with sequential
// scans switched off for their transaction, so each row is found through its index whatever the statistics say.
//
// Why: the planner picks by its statistics, and for these tables they are wrong exactly when it matters. Never
// analysed (a fresh database; this machine runs with autovacuum off) or analysed while no message was queued (the
// bench's VACUUM ANALYZE after its warm-up), `messages` looks tiny or empty of the rows wanted, and recordSent was
// planned as a hash join over a sequential scan of the whole table: 20.8 ms per batch of 75 (280 µs of the
// server's time per message, its largest single cost) and up to 72 ms under bench/kannel.ts (auto_explain;
// decision 0038). These statements are also prepared, and a generic plan made while the table was
// small stays that plan as it grows (test/api/generic-plans.test.ts). A lookup by primary key or by the SMSC id's
// index is the right plan at every table size for a batch of at most a few hundred keys, so the hint costs nothing
// when the statistics are right.

/** In a transaction: the rest of it plans without sequential scans (one round trip; SET LOCAL ends with it). */
export async function findRowsByIndex(tx: Executor): Promise<void> {
  await tx.execute(sql`set local enable_seqscan = off`);
}
