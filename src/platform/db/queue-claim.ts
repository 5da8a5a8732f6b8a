import { sql } from 'drizzle-orm';
import type { Executor, Tx } from './client.ts';

/**
 * Runs a queue claim with bitmap scans switched off for that one transaction, so the claim walks its partial
 * "due" index in order and stops after the rows it needs, whatever the statistics say.
 *
 * Why: a queue table's statistics are wrong exactly when it matters. Never analysed (a fresh database), or
 * analysed while the queue was nearly empty, PostgreSQL guesses that `status = 'pending'` matches 0.5% of the rows
 * (a few dozen), and plans a bitmap scan of every due row followed by a sort: with 100,000 due rows that is
 * 200–350 ms per claim instead of under a millisecond (bench/claims.ts, docs/performance.md). The ordered index
 * scan is the right plan at every queue depth (ORDER BY the index's column, LIMIT far below the table), so the
 * hint costs nothing when the statistics are right. SET LOCAL needs a transaction: two extra round trips.
 */
export function claimInIndexOrder<T>(db: Executor, claim: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_bitmapscan = off`);
    return claim(tx);
  });
}
