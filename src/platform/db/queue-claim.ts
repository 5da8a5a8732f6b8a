import { sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from './client.ts';

// Queue claims run with bitmap scans switched off, so a claim walks its partial "due" index in order and stops
// after the rows it needs, whatever the statistics say.
//
// Why: a queue table's statistics are wrong exactly when it matters. Never analysed (a fresh database), or
// analysed while the queue was nearly empty, PostgreSQL guesses that `status = 'queued'` matches 0.5% of the rows
// (a few dozen), and plans a bitmap scan of every due row followed by a sort: with 100,000 due rows that is
// 50–350 ms per claim instead of a few (bench/claims.ts; decision 0038). The ordered index scan is the right
// plan at every queue depth (ORDER BY the index's column, LIMIT far below the table), so the hint costs nothing
// when the statistics are right.

/**
 * Runs `claim` in a transaction of its own with bitmap scans off (SET LOCAL needs a transaction: three extra
 * round trips). For claims whose parameters are not plain numbers and ids (the webhook claim's JSON).
 */
export function claimInIndexOrder<T>(db: Executor, claim: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_bitmapscan = off`);
    return claim(tx);
  });
}

interface Dialect { sqlToQuery(query: SQL): { sql: string; params: unknown[] } }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const inlinable = (p: unknown) => (typeof p === 'number' && Number.isFinite(p)) || (typeof p === 'string' && UUID.test(p));

/**
 * The same hint in one round trip: `statement` goes to the server as one simple query with the SET LOCAL before
 * it (a multi-statement query is one implicit transaction, so the setting ends with it; inside a caller's
 * transaction it is set back right after). The simple protocol has no parameters, so the statement's are written
 * inline: only finite numbers and UUIDs are accepted, anything else throws (never text that could need quoting).
 * The dispatcher and the scheduler claim with it; bench/claims.ts compares it with the transaction above.
 */
export async function claimRowsInIndexOrder<T>(db: Executor, statement: SQL): Promise<T[]> {
  const { params } = (db as unknown as { dialect: Dialect }).dialect.sqlToQuery(statement);
  const bad = params.find((p) => !inlinable(p));
  if (bad !== undefined) throw new Error(`claimRowsInIndexOrder: parameter ${JSON.stringify(bad)} is not a finite number or a UUID`);
  const results = (await db.execute(sql`set local enable_bitmapscan = off; ${statement.inlineParams()}; set local enable_bitmapscan to default`)) as unknown as Array<{ rows: T[] }>;
  return results[1]!.rows;
}
