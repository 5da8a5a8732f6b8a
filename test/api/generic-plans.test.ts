// The workers' prepared batch writes keep finding their rows by index after `messages` has grown (issue 16,
// session 7). PostgreSQL keeps a prepared statement's generic plan for the connection's life: planned while the
// table was small and never analysed, recordSent's was a hash join over a sequential scan of every message, kept
// as the table grew (20.8 ms per batch of 75 under bench/kannel.ts). One connection, so the statements planned
// while the table is small are the ones run after it has grown; the server counts the rows read by sequential
// scans (never timed).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rows, type Executor } from '../../src/platform/db/client.ts';
import { claimBatch, recordSent } from '../../src/modules/dispatch/dispatch.repo.ts';
import { applyFinalBatch } from '../../src/modules/receipts/receipts.repo.ts';
import { scratchDatabaseForFile } from '../support/scratch-db.ts';

const opened = scratchDatabaseForFile(1);
let account: string;
beforeAll(async () => {
  await opened().db.execute(sql`alter table messages set (autovacuum_enabled = off)`);
  account = randomUUID();
  await opened().db.execute(sql`insert into accounts (id, business_name) values (${account}, 'plans')`);
});

/** `count` messages of one status (sent ones with SMSC ids `${prefix}-i`), oldest first. */
async function seed(status: 'queued' | 'sent', count: number, prefix = randomUUID()): Promise<void> {
  await opened().db.execute(sql`
    insert into messages (id, account_id, recipient, country, sender, body, parts, credits, status, created_at, next_attempt_at, sent_at, smsc_message_id)
    select gen_random_uuid(), ${account}, '+61400000000', 'AU', 'Plans', 'x', 1, 1, ${status},
           now() - interval '1 hour' + i * interval '1 millisecond', now() - interval '1 hour' + i * interval '1 millisecond',
           case when ${status} = 'sent' then now() - interval '1 hour' end,
           case when ${status} = 'sent' then ${prefix} || '-' || i end
    from generate_series(0, ${count - 1}) as i`);
}

/** Rows this transaction has read from `messages` by sequential scans so far (the server's own count). */
const seqRowsRead = async (tx: Executor) => Number((await rows<{ n: string }>(tx, sql`
  select pg_stat_get_xact_tuples_returned('messages'::regclass) as n`))[0]!.n);

describe('prepared batch writes on a table that grew after they were planned', () => {
  it('recording sent messages and applying receipts read no message by a sequential scan', async () => {
    // While the table is small: more than five runs of each, so the connection's plans are the generic ones.
    await seed('queued', 20);
    const early = await claimBatch(opened().db, 20, 15_000);
    for (let i = 0; i < 10; i += 1) {
      await recordSent(opened().db, early.slice(i * 2, i * 2 + 2).map((c, j) => ({ id: c.id, claim: c.claim, smscMessageId: `early-${i}-${j}`, sentAt: new Date() })));
    }
    for (let i = 0; i < 10; i += 1) {
      await opened().db.transaction((tx) => applyFinalBatch(tx, [0, 1].map((j) => ({
        carrier: 'default', smscId: `early-${i}-${j}`, state: 'delivered' as const, status: 'delivered' as const, errorCode: null, receivedAt: new Date(),
      }))));
    }

    // The table grows (nothing analyses it); the same connection runs the same statements.
    const prefix = randomUUID();
    await seed('sent', 10_000, prefix);
    await seed('queued', 10_000);
    const claimed = await claimBatch(opened().db, 10, 15_000);
    expect(claimed).toHaveLength(10);
    const sent = await opened().db.transaction(async (tx) => {
      const before = await seqRowsRead(tx);
      const recorded = await recordSent(tx, claimed.map((c, j) => ({ id: c.id, claim: c.claim, smscMessageId: `late-${j}`, sentAt: new Date() })));
      return { recorded, read: (await seqRowsRead(tx)) - before };
    });
    expect(sent.recorded.size).toBe(10);
    // Before: a sequential scan of every message (20,000 and more) for the batch.
    expect(sent.read).toBe(0);

    const receipts = await opened().db.transaction(async (tx) => {
      const before = await seqRowsRead(tx);
      const result = await applyFinalBatch(tx, Array.from({ length: 10 }, (_, j) => ({
        carrier: 'default', smscId: `${prefix}-${j * 7}`, state: 'delivered' as const, status: 'delivered' as const, errorCode: null, receivedAt: new Date(),
      })));
      return { updated: result.updated.length, read: (await seqRowsRead(tx)) - before };
    });
    expect(receipts.updated).toBe(10);
    expect(receipts.read).toBe(0);
  });
});
