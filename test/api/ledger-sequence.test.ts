// The ledger's sequence is the order the balance moved in: walking an account's rows by seq, each balance_after
// is the previous one plus its delta, and the last is the balance. Sends, top-ups and transfers race each other
// (really in parallel, on separate connections).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

async function walk(accountId: string) {
  const ledger = await rows<{ seq: string | number; delta: number; balance_after: number }>(t.services.db, sql`
    select seq, delta, balance_after from credit_ledger where account_id = ${accountId} order by seq`);
  const [account] = await rows<{ credits: number }>(t.services.db, sql`select credits from accounts where id = ${accountId}`);
  return { ledger, credits: account!.credits };
}

describe('credit ledger sequence', () => {
  it('walking the ledger by seq reproduces every balance_after, under concurrent debits and credits', async () => {
    const a = await createAccount(t.app, { credits: 4 });
    const work = [
      ...Array.from({ length: 40 }, (_, i) => call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: i % 2 ? 'x' : 'y'.repeat(200) })),
      ...Array.from({ length: 8 }, () => call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'hi', recipients: [mobile(), mobile()] })),
      ...Array.from({ length: 12 }, () => admin(t.app, 'POST', `/admin/accounts/${a.accountId}/credits`, { amount: 3 })),
    ];
    const results = await Promise.all(work);
    expect(results.every((r) => r.status < 300 || r.status === 402)).toBe(true);
    const { ledger, credits } = await walk(a.accountId);
    expect(ledger.length).toBeGreaterThan(12);
    let balance = 0;
    for (const row of ledger) {
      balance += row.delta;
      expect(row.balance_after).toBe(balance);
    }
    expect(balance).toBe(credits);
    const seqs = ledger.map((r) => BigInt(r.seq));
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});
