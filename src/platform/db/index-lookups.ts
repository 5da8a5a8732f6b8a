import { sql } from 'drizzle-orm';
import type { Executor } from './client.ts';

// Batch writes that find their rows by key (the dispatcher's `sent` records, a receipt batch) run with sequential
// scans switched off for their transaction, so each row is found through its index whatever the statistics say.
//
// Why: those statements are prepared, and PostgreSQL keeps a prepared statement's generic plan for the life of the
// connection. Planned while `messages` was small or never analysed (a fresh database; this machine runs with
// autovacuum off), that plan is a hash join over a sequential scan of the whole table, and it stays that plan as
// the table grows: recordSent took 20.8 ms per batch of 75 (280 µs of the server's time per message, its largest
// single cost) and up to 72 ms under bench/kannel.ts (auto_explain, docs/performance.md, session 7). A lookup by
// primary key or by the SMSC id's index is the right plan at every table size for a batch of at most a few
// hundred keys, so the hint costs nothing when the statistics are right.

/** In a transaction: the rest of it plans without sequential scans (one round trip; SET LOCAL ends with it). */
export async function findRowsByIndex(tx: Executor): Promise<void> {
  await tx.execute(sql`set local enable_seqscan = off`);
}
