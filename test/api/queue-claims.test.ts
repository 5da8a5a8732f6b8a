// Queue claims against the real database. Webhook deliveries: a claim locks only the rows it
// takes, keeps the per-endpoint cap, and two claims running at once take disjoint rows and both fill up. The
// dispatcher's claim and the scheduler's release, on a table never analysed: each reads its partial index from the
// oldest due row and stops after the rows it takes (counted by the server, never timed). A scratch database, as
// claims span every account. (The speed with a 100,000-row backlog is bench/claims.ts's job.)
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../src/platform/db/client.ts';
import { claimDue, type ClaimInput } from '../../src/modules/webhooks/delivery.repo.ts';
import { claimBatch, recordSent, renewLeases } from '../../src/modules/dispatch/dispatch.repo.ts';
import { releaseDue } from '../../src/modules/scheduling/schedule.repo.ts';
import { insertMessages, tuplesRead } from '../support/raw-messages.ts';
import { scratchDatabaseForFile } from '../support/scratch-db.ts';

const opened = scratchDatabaseForFile(4);
beforeAll(async () => {
  // Never analysed for the whole file, as on a database whose autovacuum has not run yet.
  await opened().db.execute(sql`alter table messages set (autovacuum_enabled = off)`);
});
// Claims take whatever is due in the database: each test starts from an empty queue (the database is ours alone).
afterEach(async () => { await opened().db.execute(sql`delete from webhook_deliveries`); });

/** Fresh due deliveries: `perAccount` for each of `accounts` new accounts, oldest first in insertion order. */
async function seed(accounts: number, perAccount: number): Promise<string[]> {
  const ids = Array.from({ length: accounts }, () => randomUUID());
  await opened().db.execute(sql`
    insert into accounts (id, business_name) select a::uuid, 'claims' from unnest(${`{${ids.join(',')}}`}::text[]) as a`);
  await opened().db.execute(sql`
    insert into webhook_deliveries (id, account_id, event, body, next_attempt_at)
    select gen_random_uuid(), (${`{${ids.join(',')}}`}::uuid[])[1 + (i % ${accounts})], 'message.dlr', '{}',
           now() - interval '1 hour' + i * interval '1 millisecond'
    from generate_series(0, ${accounts * perAccount - 1}) as i`);
  return ids;
}

const input = (over: Partial<ClaimInput>): ClaimInput => ({ want: 5, scan: 20, cap: 100, room: {}, leaseMs: 15_000, token: randomUUID(), ...over });

/** Rows of these accounts another connection could lock right now (what a concurrent claimer could take). */
const lockable = async (accounts: string[]) => (await rows<{ n: number }>(opened().db, sql`
  select count(*)::int as n from (
    select id from webhook_deliveries
    where account_id = any(${`{${accounts.join(',')}}`}::uuid[]) and status = 'pending'
    for update skip locked) x`))[0]!.n;

class Rollback extends Error {}

/** Runs `body` in a transaction that is rolled back afterwards, so the seeded backlog stays as it was. */
async function inRolledBack(body: (tx: Executor) => Promise<void>): Promise<void> {
  await opened().db.transaction(async (tx) => { await body(tx); throw new Rollback(); })
    .catch((err: unknown) => { if (!(err instanceof Rollback)) throw err; });
}

describe('webhook delivery claims', () => {
  it('lock only the rows they take, not every row they scanned', async () => {
    const accounts = await seed(1, 40);
    await inRolledBack(async (tx) => {
      const claimed = await claimDue(tx, input({ want: 5, scan: 20 }));
      expect(claimed).toHaveLength(5);
      // Before: the 20 scanned rows stayed locked until the claim committed, hidden from every other claimer.
      expect(await lockable(accounts)).toBe(35);
    });
  });

  it('take the oldest due rows and keep the per-endpoint cap and room', async () => {
    const [a, b, c] = await seed(3, 10);
    await inRolledBack(async (tx) => {
      const claimed = await claimDue(tx, input({ want: 10, scan: 30, cap: 3, room: { [`${b}|message.dlr`]: 1, [`${c}|message.dlr`]: 0 } }));
      const per = (id: string | undefined) => claimed.filter((r) => r.accountId === id).length;
      expect([per(a), per(b), per(c)]).toEqual([3, 1, 0]);
    });
  });

  it('running side by side, take disjoint rows and both fill up', async () => {
    const accounts = await seed(1, 30);
    const first = opened().db.transaction(async (tx) => {
      const mine = await claimDue(tx, input({ want: 5, scan: 20 }));
      // Held open while the second claim runs over the same oldest rows.
      const theirs = await claimDue(opened().db, input({ want: 5, scan: 20 }));
      return { mine, theirs };
    });
    const { mine, theirs } = await first;
    expect(mine).toHaveLength(5);
    expect(theirs).toHaveLength(5);
    expect(new Set([...mine, ...theirs].map((r) => r.id)).size).toBe(10);
    expect(await lockable(accounts)).toBe(30);
  });
});

describe('message queue claims on a table never analysed', () => {
  // Enough due rows that, without statistics, PostgreSQL plans a bitmap scan of all of them and a sort.
  const BACKLOG = 10_000;
  afterEach(async () => { await opened().db.execute(sql`delete from messages`); });

  it('the dispatcher reads the queue index from the oldest due row and stops after the rows it takes', async () => {
    const oldest = (await insertMessages(opened().db, { status: 'queued', count: BACKLOG })).slice(0, 50);
    await inRolledBack(async (tx) => {
      const before = await tuplesRead(tx, 'messages_queue_idx');
      const claimed = await claimBatch(tx, 50, 15_000);
      const read = await tuplesRead(tx, 'messages_queue_idx') - before;
      expect(claimed.map((c) => c.id).sort()).toEqual([...oldest].sort());
      // Before: every one of the 10,000 due entries (a bitmap scan, then a sort).
      expect(read).toBeLessThanOrEqual(60);
      // The hint ends with the claim: the rest of the caller's transaction plans as usual.
      expect((await rows<{ enable_bitmapscan: string }>(tx, sql`show enable_bitmapscan`))[0]!.enable_bitmapscan).toBe('on');
    });
  });

  it('the scheduler releases the longest-due messages, reading no further into the index', async () => {
    const oldest = (await insertMessages(opened().db, { status: 'scheduled', count: BACKLOG })).slice(0, 200);
    await inRolledBack(async (tx) => {
      const before = await tuplesRead(tx, 'messages_scheduled_idx');
      const released = await releaseDue(tx, 200);
      const read = await tuplesRead(tx, 'messages_scheduled_idx') - before;
      expect(released.sort()).toEqual([...oldest].sort());
      expect(read).toBeLessThanOrEqual(220);
    });
  });

  it('recording sent messages finds them by primary key, reading no queue index entries', async () => {
    await insertMessages(opened().db, { status: 'queued', count: BACKLOG });
    await inRolledBack(async (tx) => {
      const claimed = await claimBatch(tx, 70, 15_000);
      // Seven batches: a prepared statement's first five plans are custom ones, the later ones may be generic.
      for (let b = 0; b < 7; b += 1) {
        const batch = claimed.slice(b * 10, b * 10 + 10);
        const before = await tuplesRead(tx, 'messages_queue_idx');
        const recorded = await recordSent(tx, batch.map((c, i) => ({ id: c.id, claim: c.claim, smscMessageId: `rs-${b}-${i}`, sentAt: new Date() })));
        const read = await tuplesRead(tx, 'messages_queue_idx') - before;
        expect(recorded).toEqual(new Set(batch.map((c) => c.id)));
        // Before: a bitmap scan of every queued message's entry (10,000 and more) for each batch.
        expect(read).toBe(0);
      }
    });
  });

  it('renewing the leases of held messages finds them by primary key, reading no queue index entries', async () => {
    await insertMessages(opened().db, { status: 'queued', count: BACKLOG });
    await inRolledBack(async (tx) => {
      const claimed = await claimBatch(tx, 20, 15_000);
      const before = await tuplesRead(tx, 'messages_queue_idx');
      const seqBefore = await tuplesRead(tx, 'messages');
      await renewLeases(tx, claimed.map((c) => ({ id: c.id, claim: c.claim! })), 60_000);
      const read = await tuplesRead(tx, 'messages_queue_idx') - before;
      // On the table itself the same counter is rows read by sequential scans: none either.
      expect(await tuplesRead(tx, 'messages') - seqBefore).toBe(0);
      const [renewed] = await rows<{ n: number }>(tx, sql`
        select count(*)::int as n from messages where id = any(${`{${claimed.map((c) => c.id).join(',')}}`}::uuid[]) and lease_until > now() + interval '30 seconds'`);
      expect(renewed!.n).toBe(20);
      // Before: its `status = 'queued'` matched the queue index's predicate, read in full (10,000 and more).
      expect(read).toBe(0);
    });
  });

  it('claims nothing twice: two dispatcher claims side by side take disjoint oldest rows', async () => {
    const ids = await insertMessages(opened().db, { status: 'queued', count: 100 });
    const { mine, theirs } = await opened().db.transaction(async (tx) => {
      const mine = await claimBatch(tx, 20, 15_000);
      // Held open (rows locked, not committed) while the second claim runs over the same oldest rows.
      const theirs = await claimBatch(opened().db, 20, 15_000);
      return { mine, theirs };
    });
    expect(mine.map((c) => c.id).sort()).toEqual(ids.slice(0, 20).sort());
    expect(new Set([...mine, ...theirs].map((c) => c.id)).size).toBe(40);
    expect(theirs.map((c) => c.id).sort()).toEqual(ids.slice(20, 40).sort());
  });
});
