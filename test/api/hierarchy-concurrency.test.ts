// Races allocate, recall and sends on one parent and its sub-account. Checks that no request failed
// unexpectedly (a deadlock would be a 500),
// no balance went negative, and every balance equals the sum of its ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { rows } from '../../src/platform/db/client.ts';

let t: TestApp;

describe('concurrent transfers and sends', () => {
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('keeps both balances non-negative and equal to their ledgers', async () => {
    const initial = 60;
    const parent = await createAccount(t.app, { credits: initial, hierarchy: true });
    const created = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Racer' });
    const childId = created.body.id as string;
    const childKey = (await call(t.app, parent.apiKey, 'POST', `/account/${childId}/key`, {})).body.key as string;

    const ops: Array<() => ReturnType<typeof call>> = [];
    for (let i = 0; i < 40; i++) {
      ops.push(() => call(t.app, parent.apiKey, 'POST', `/account/${childId}/credits/allocate`, { amount: 1 + (i % 4) }));
      ops.push(() => call(t.app, parent.apiKey, 'POST', `/account/${childId}/credits/recall`, { amount: 1 + (i % 3) }));
      ops.push(() => call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'child' }));
      ops.push(() => call(t.app, parent.apiKey, 'POST', '/send', { to: mobile(), message: 'parent' }));
      if (i % 10 === 0) ops.push(() => call(t.app, childKey, 'POST', '/send-batch', { recipients: [mobile(), mobile(), mobile()], message: 'b' }));
    }
    const results = await Promise.all(ops.map((op) => op()));
    const statuses = new Set(results.map((r) => r.status));
    expect([...statuses].every((s) => s === 200 || s === 402), JSON.stringify([...statuses])).toBe(true);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(20);

    const balances = await rows<{ id: string; credits: number; ledger: number; sends: number; low: number }>(t.services.db, sql`
      select a.id, a.credits,
             coalesce((select sum(delta) from credit_ledger l where l.account_id = a.id), 0)::int as ledger,
             coalesce((select sum(-delta) from credit_ledger l where l.account_id = a.id and kind = 'send'), 0)::int as sends,
             coalesce((select min(balance_after) from credit_ledger l where l.account_id = a.id), 0)::int as low
      from accounts a where a.id in (${parent.accountId}, ${childId})`);
    expect(balances).toHaveLength(2);
    for (const b of balances) {
      expect(b.credits).toBeGreaterThanOrEqual(0);
      expect(b.low).toBeGreaterThanOrEqual(0);
      expect(b.credits).toBe(b.ledger);
    }
    const totalSent = balances.reduce((s, b) => s + b.sends, 0);
    const totalNow = balances.reduce((s, b) => s + b.credits, 0);
    // Transfers move credits, never make or lose them: what is left is what was granted less what was sent.
    expect(totalNow).toBe(initial - totalSent);

    // Every transfer the API reported as done has its pair of ledger rows, and no others exist.
    const moved = results.filter((r) => r.status === 200 && typeof r.body.direction === 'string');
    const [pairs] = await rows<{ child_rows: number; parent_rows: number }>(t.services.db, sql`
      select count(*) filter (where account_id = ${childId} and kind in ('allocate', 'recall'))::int as child_rows,
             count(*) filter (where account_id = ${parent.accountId} and kind in ('allocate', 'recall'))::int as parent_rows
      from credit_ledger where account_id in (${parent.accountId}, ${childId})`);
    expect(pairs).toEqual({ child_rows: moved.length, parent_rows: moved.length });
    const sentMessages = await rows<{ n: number }>(t.services.db, sql`
      select coalesce(sum(credits), 0)::int as n from messages where account_id in (${parent.accountId}, ${childId})`);
    expect(sentMessages[0]!.n).toBe(totalSent);
  });

  it('closing a sub-account while it sends and is funded leaves nothing behind', async () => {
    const parent = await createAccount(t.app, { credits: 50, hierarchy: true });
    const created = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Closing', seed_credits: 20 });
    const childId = created.body.id as string;
    const childKey = (await call(t.app, parent.apiKey, 'POST', `/account/${childId}/key`, {})).body.key as string;
    const ops = [
      ...Array.from({ length: 10 }, () => call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x' })),
      ...Array.from({ length: 5 }, () => call(t.app, parent.apiKey, 'POST', `/account/${childId}/credits/allocate`, { amount: 2 })),
      call(t.app, parent.apiKey, 'DELETE', `/account/${childId}`),
    ];
    const results = await Promise.all(ops);
    expect(results.every((r) => [200, 401, 402, 404].includes(r.status)), JSON.stringify(results.map((r) => r.status))).toBe(true);
    const [child] = await rows<{ credits: number; account_status: string; ledger: number }>(t.services.db, sql`
      select credits, account_status, (select coalesce(sum(delta), 0)::int from credit_ledger where account_id = ${childId}) as ledger
      from accounts where id = ${childId}`);
    expect(child).toMatchObject({ account_status: 'closed', ledger: child!.credits });
    // An allocate that lost the race to the close answers 404; one that won was returned by it.
    expect(child!.credits).toBe(0);
    const [p] = await rows<{ credits: number; ledger: number }>(t.services.db, sql`
      select credits, (select coalesce(sum(delta), 0)::int from credit_ledger where account_id = ${parent.accountId}) as ledger
      from accounts where id = ${parent.accountId}`);
    expect(p!.credits).toBe(p!.ledger);
  });
});
