import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { rows } from '../../src/platform/db/client.ts';

// Races need real parallel connections.
describe('concurrent sends on one account (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('never takes the balance below zero and ledgers every debit', async () => {
    const a = await createAccount(t.app, { credits: 37 });
    const attempts = Array.from({ length: 120 }, (_, i) => i % 3 === 0
      ? call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x', recipients: [mobile(), mobile()] })
      : call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'a'.repeat(i % 2 ? 10 : 200) }));
    const results = await Promise.all(attempts);
    expect(results.every((r) => r.status === 200 || r.status === 402)).toBe(true);
    const used = results.filter((r) => r.status === 200).reduce((sum, r) => sum + (r.body.credits_used as number), 0);
    const balance = (await call(t.app, a.apiKey, 'GET', '/balance')).body.credits as number;
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(used + balance).toBe(37);
    const [sums] = await rows<{ ledger: number; messages: number }>(t.services.db, sql`
      select (select coalesce(sum(delta), 0)::int from credit_ledger where account_id = ${a.accountId}) as ledger,
             (select coalesce(sum(credits), 0)::int from messages where account_id = ${a.accountId}) as messages`);
    expect(sums!.ledger).toBe(balance);
    expect(sums!.messages).toBe(used);
  });

  it('keeps balance and ledger equal while the operator tops up during sends', async () => {
    const a = await createAccount(t.app, { credits: 3 });
    const work = [
      ...Array.from({ length: 60 }, () => call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x' })),
      ...Array.from({ length: 10 }, () => admin(t.app, 'POST', `/admin/accounts/${a.accountId}/credits`, { amount: 2 })),
    ];
    await Promise.all(work);
    const [check] = await rows<{ credits: number; ledger: number }>(t.services.db, sql`
      select credits, (select sum(delta)::int from credit_ledger where account_id = ${a.accountId}) as ledger
      from accounts where id = ${a.accountId}`);
    expect(check!.credits).toBeGreaterThanOrEqual(0);
    expect(check!.credits).toBe(check!.ledger);
  });
});
