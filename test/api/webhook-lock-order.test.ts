// The delivery worker's two writers of held rows, the lease renewal and the completion batch, lock those rows in
// id order: taking them in the batch's order, a renewal and a completion sharing two rows could each hold one the
// other waits for (a deadlock; PostgreSQL rolls one back). Checked without timing: a transaction here holds the
// higher row, the statement is started with the rows in descending order and waits on it, and the lower row must
// then already be locked by the statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createAccount } from '../support/factories.ts';
import { completeAttempts, renewLeases } from '../../src/modules/webhooks/delivery.repo.ts';
import { rows } from '../../src/platform/db/client.ts';
import { sqlStateOf } from '../../src/platform/db/sql-state.ts';
import { uuidv7 } from '../../src/platform/ids.ts';
import { pollUntil } from '../support/poll.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** Two pending deliveries held under one claim, the higher id stored first (a scan in storage order meets it first). */
async function heldPair(): Promise<{ low: string; high: string; claim: string }> {
  const a = await createAccount(t.app);
  const claim = uuidv7();
  const [low, high] = [uuidv7(), uuidv7()].sort();
  await t.services.db.execute(sql`
    insert into webhook_deliveries (id, account_id, event, body, claim_token, lease_until, next_attempt_at)
    values (${high}, ${a.accountId}, 'message.dlr', '{}', ${claim}, now() + interval '1 minute', now() + interval '1 minute'),
           (${low}, ${a.accountId}, 'message.dlr', '{}', ${claim}, now() + interval '1 minute', now() + interval '1 minute')`);
  return { low: low!, high: high!, claim };
}

/**
 * Holds `high` in a transaction, starts `write` (given the rows high first) and, once it waits on that
 * transaction, tries to lock `low` without waiting: the SQLSTATE of that attempt (55P03 when `write` holds it).
 */
async function lowWhileWaitingOnHigh(pair: { low: string; high: string }, write: () => Promise<void>): Promise<string | undefined> {
  let running: Promise<void> | null = null;
  let state: string | undefined;
  await t.services.db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from webhook_deliveries where id = ${pair.high} for update`);
    const [me] = await rows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
    running = write();
    await pollUntil(async () => (await rows<{ n: number }>(t.services.db, sql`
      select count(*)::int as n from pg_stat_activity where ${me!.pid} = any(pg_blocking_pids(pid))`))[0]!.n, (n) => n > 0, 'the write blocked on the high row', 30_000, 10);
    try {
      await tx.transaction(async (sp) => { await sp.execute(sql`select 1 from webhook_deliveries where id = ${pair.low} for update nowait`); });
    } catch (err) {
      state = sqlStateOf(err);
    }
  });
  await running;
  return state;
}

describe('webhook delivery row locks', () => {
  it('the completion batch locks its rows in id order, whatever the order of the batch', async () => {
    const pair = await heldPair();
    const outcome = (id: string) => ({
      id, claim: pair.claim, attemptId: uuidv7(), attemptedAt: new Date(), statusCode: 200, error: null, durationMs: 1,
      status: 'delivered' as const, nextAt: null, endpoint: { accountId: '', event: 'message.dlr' as const },
    });
    expect(await lowWhileWaitingOnHigh(pair, () => completeAttempts(t.services.db, [outcome(pair.high), outcome(pair.low)]))).toBe('55P03');
    const done = await rows<{ status: string }>(t.services.db, sql`select status from webhook_deliveries where id in (${pair.low}, ${pair.high})`);
    expect(done.map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });

  it('the lease renewal locks its rows in id order, whatever the order it is given them', async () => {
    const pair = await heldPair();
    const held = [pair.high, pair.low].map((id) => ({ id, claim: pair.claim }));
    expect(await lowWhileWaitingOnHigh(pair, () => renewLeases(t.services.db, held, 120_000))).toBe('55P03');
    const renewed = await rows<{ n: number }>(t.services.db, sql`
      select count(*)::int as n from webhook_deliveries
      where id in (${pair.low}, ${pair.high}) and lease_until > now() + interval '90 seconds'`);
    expect(renewed[0]!.n).toBe(2);
  });
});
