// Group commit with several requests of ONE account in one statement: each request is accepted in order while the
// balance (and the daily cap) left by the requests accepted before it allows, the account is debited once, and
// the ledger still walks. The statement is driven directly so the grouping is certain; the API test checks that
// concurrent /send requests of one key really share statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { uuidv7 } from '../../src/platform/ids.ts';
import { sydneyDay } from '../../src/platform/sydney-day.ts';
import { insertSingles, type SingleSend } from '../../src/modules/messages/single-send.repo.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

function request(accountId: string, parts: number, extra: Partial<SingleSend> = {}): SingleSend {
  return {
    id: uuidv7(), ledgerId: uuidv7(), campaignId: uuidv7(), accountId, senderParentId: null, optoutExempt: false,
    recipient: mobile(), country: 'AU', body: `parts ${parts}`, parts, optoutCode: null, campaignName: null,
    metadata: null, scheduledAt: null, requestedSender: null, sharedSender: '+61400000000', today: sydneyDay(new Date()),
    ...extra,
  };
}

async function ledger(accountId: string) {
  return rows<{ delta: number; balance_after: number; message_id: string }>(t.services.db, sql`
    select delta, balance_after, message_id from credit_ledger where account_id = ${accountId} and kind = 'send' order by seq`);
}

async function balance(accountId: string): Promise<number> {
  const [a] = await rows<{ credits: number }>(t.services.db, sql`select credits from accounts where id = ${accountId}`);
  return a!.credits;
}

describe('several sends of one account in one statement', () => {
  it('accepts each request in order while the balance left allows: the one that would overdraw is refused, later ones that fit go', async () => {
    const a = await createAccount(t.app, { credits: 9 });
    const other = await createAccount(t.app, { credits: 100 });
    const sends = [request(a.accountId, 3), request(other.accountId, 2), request(a.accountId, 5), request(a.accountId, 4), request(a.accountId, 1), request(a.accountId, 1)];
    const out = await insertSingles(t.services.db, sends);
    expect(out.map((o) => o.ok)).toEqual([true, true, true, false, true, false]);
    expect(out.map((o) => o.creditsAfter)).toEqual([6, 98, 1, null, 0, null]);
    // what each refused request was refused against: the balance the earlier accepted ones left
    expect(out[3]!.creditsBefore).toBe(1);
    expect(out[5]!.creditsBefore).toBe(0);
    expect(await balance(a.accountId)).toBe(0);
    expect(await balance(other.accountId)).toBe(98);
    const walked = await ledger(a.accountId);
    expect(walked.map((r) => [r.delta, r.balance_after, r.message_id])).toEqual([
      [-3, 6, sends[0]!.id], [-5, 1, sends[2]!.id], [-1, 0, sends[4]!.id],
    ]);
    const [written] = await rows<{ n: number }>(t.services.db, sql`select count(*)::int as n from messages where account_id = ${a.accountId}`);
    expect(written!.n).toBe(3);
  });

  it('counts the daily cap request by request, skipping refused ones', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    await t.services.db.execute(sql`update accounts set daily_limit = 2 where id = ${a.accountId}`);
    const out = await insertSingles(t.services.db, [request(a.accountId, 20), request(a.accountId, 1), request(a.accountId, 1), request(a.accountId, 1)]);
    expect(out.map((o) => [o.ok, o.dailyExceeded])).toEqual([[false, false], [true, false], [true, false], [false, true]]);
    const [acc] = await rows<{ credits: number; daily_count: number }>(t.services.db, sql`select credits, daily_count from accounts where id = ${a.accountId}`);
    expect(acc).toEqual({ credits: 8, daily_count: 2 });
  });

  it('rolls one campaign up once for all its requests, and leaves opted-out and refused senders out', async () => {
    const a = await createAccount(t.app, { credits: 50 });
    const stop = mobile();
    await call(t.app, a.apiKey, 'POST', '/optouts', { number: stop });
    const sends = [
      request(a.accountId, 2, { campaignName: 'spring' }), request(a.accountId, 1, { campaignName: 'spring' }),
      request(a.accountId, 1, { campaignName: 'spring', recipient: stop }),
      request(a.accountId, 1, { requestedSender: { kind: 'alpha', senderId: 'NotMine' } }),
      request(a.accountId, 3, { campaignName: 'autumn' }),
    ];
    const out = await insertSingles(t.services.db, sends);
    expect(out.map((o) => [o.ok, o.optedOut, o.senderOk])).toEqual([[true, false, true], [true, false, true], [false, true, true], [false, false, false], [true, false, true]]);
    const campaigns = await rows<{ name: string; recipient_count: number; total_credits: number; id: string }>(t.services.db, sql`
      select name, recipient_count, total_credits, id from campaigns where account_id = ${a.accountId} order by name`);
    expect(campaigns.map((c) => [c.name, c.recipient_count, c.total_credits])).toEqual([['autumn', 1, 3], ['spring', 2, 3]]);
    const [linked] = await rows<{ n: number }>(t.services.db, sql`
      select count(*)::int as n from messages m join campaigns c on c.id = m.campaign_id and c.name = 'spring' where m.account_id = ${a.accountId}`);
    expect(linked!.n).toBe(2);
    expect(await balance(a.accountId)).toBe(44);
  });
});

describe('concurrent /send requests of one key', () => {
  it('share statements, and every accepted request is committed and debited exactly once', async () => {
    const a = await createAccount(t.app, { credits: 30 });
    const results = await Promise.all(Array.from({ length: 40 }, () => call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'hello' })));
    const accepted = results.filter((r) => r.status === 200);
    expect(accepted).toHaveLength(30);
    expect(results.filter((r) => r.status === 402)).toHaveLength(10);
    const ids = accepted.map((r) => r.body.message_id as string).sort();
    // rows written by one statement carry one transaction id: fewer transactions than requests means sharing
    const written = await rows<{ id: string; tx: string }>(t.services.db, sql`
      select id, xmin::text as tx from messages where account_id = ${a.accountId} order by id`);
    expect(written.map((r) => r.id)).toEqual(ids);
    expect(new Set(written.map((r) => r.tx)).size).toBeLessThan(20);
    expect(await balance(a.accountId)).toBe(0);
    const remaining = accepted.map((r) => r.body.credits_remaining as number).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
});
