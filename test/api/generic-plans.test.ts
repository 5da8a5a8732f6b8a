// The workers' prepared batch writes keep finding their rows by index after `messages` has grown.
// PostgreSQL keeps a prepared statement's generic plan for the connection's life: planned while the
// table was small and never analysed, recordSent's was a hash join over a sequential scan of every message, kept
// as the table grew (20.8 ms per batch of 75 under bench/kannel.ts). One connection, so the statements planned
// while the table is small are the ones run after it has grown; the server counts the rows read by sequential
// scans (never timed).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { claimBatch, recordSent } from '../../src/modules/dispatch/dispatch.repo.ts';
import { applyFinalBatch } from '../../src/modules/receipts/receipts.repo.ts';
import { insertMessages, tuplesRead } from '../support/raw-messages.ts';
import { scratchDatabaseForFile } from '../support/scratch-db.ts';

const opened = scratchDatabaseForFile(1);
beforeAll(async () => {
  await opened().db.execute(sql`alter table messages set (autovacuum_enabled = off)`);
});

describe('prepared batch writes on a table that grew after they were planned', () => {
  it('recording sent messages and applying receipts read no message by a sequential scan', async () => {
    // While the table is small: more than five runs of each, so the connection's plans are the generic ones.
    await insertMessages(opened().db, { status: 'queued', count: 20 });
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
    await insertMessages(opened().db, { status: 'sent', count: 10_000, smscPrefix: prefix });
    await insertMessages(opened().db, { status: 'queued', count: 10_000 });
    const claimed = await claimBatch(opened().db, 10, 15_000);
    expect(claimed).toHaveLength(10);
    const sent = await opened().db.transaction(async (tx) => {
      const before = await tuplesRead(tx, 'messages');
      const recorded = await recordSent(tx, claimed.map((c, j) => ({ id: c.id, claim: c.claim, smscMessageId: `late-${j}`, sentAt: new Date() })));
      return { recorded, read: (await tuplesRead(tx, 'messages')) - before };
    });
    expect(sent.recorded.size).toBe(10);
    // Before: a sequential scan of every message (20,000 and more) for the batch.
    expect(sent.read).toBe(0);

    const receipts = await opened().db.transaction(async (tx) => {
      const before = await tuplesRead(tx, 'messages');
      const result = await applyFinalBatch(tx, Array.from({ length: 10 }, (_, j) => ({
        carrier: 'default', smscId: `${prefix}-${j * 7}`, state: 'delivered' as const, status: 'delivered' as const, errorCode: null, receivedAt: new Date(),
      })));
      return { updated: result.updated.length, read: (await tuplesRead(tx, 'messages')) - before };
    });
    expect(receipts.updated).toBe(10);
    expect(receipts.read).toBe(0);
  });
});
