import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

async function campaignMessages(key: string, campaignId: string) {
  const res = await call(t.app, key, 'GET', `/campaign/${campaignId}?limit=1000`);
  return res.body as { campaign: Record<string, unknown>; messages: Array<{ recipient: string; body: string; parts: number }>; stats: Record<string, number> };
}

describe('POST /send-batch', () => {
  it('merges fields per recipient, normalises local numbers and removes duplicates', async () => {
    const a = await createAccount(t.app, { credits: 50 });
    const [x, y] = [mobile(), mobile()];
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', {
      message: 'Hi {{name}}, your code is {{ code }}.',
      recipients: [
        { phone: x, merge_data: { name: 'Ana', code: '42' } },
        { phone: `0${y.slice(3)}`, merge_data: { name: 'Ben' } },
        x,
        'not a number',
        '+1 202 555 0100',
      ],
      campaign: 'Launch',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      campaign_id: expect.any(String), recipients_queued: 2, invalid_numbers: ['not a number', '+1 202 555 0100'],
      invalid_details: [
        { number: 'not a number', reason: 'not an Australian or New Zealand mobile number' },
        { number: '+1 202 555 0100', reason: 'not an Australian or New Zealand mobile number' },
      ],
      opted_out_count: 0, duplicates_removed: 1, credits_used: 2, credits_remaining: 48, segments: 2,
    });
    const c = await campaignMessages(a.apiKey, res.body.campaign_id as string);
    expect(c.campaign).toMatchObject({ name: 'Launch', recipient_count: 2, total_credits: 2, message_body: 'Hi {{name}}, your code is {{ code }}.' });
    const bodies = Object.fromEntries(c.messages.map((m) => [m.recipient, m.body]));
    expect(bodies).toEqual({ [x]: 'Hi Ana, your code is 42.', [y]: 'Hi Ben, your code is .' });
  });

  it('charges each recipient for its own rendered length', async () => {
    const a = await createAccount(t.app, { credits: 50 });
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', {
      message: '{{text}}',
      recipients: [{ phone: mobile(), merge_data: { text: 'a'.repeat(160) } }, { phone: mobile(), merge_data: { text: 'a'.repeat(161) } }],
    });
    expect(res.body.credits_used).toBe(3);
  });

  it('skips and counts opted-out recipients without charging them', async () => {
    const a = await createAccount(t.app);
    const [x, y] = [mobile(), mobile()];
    await t.services.db.execute(sql`insert into optouts (account_id, number, source) values (${a.accountId}, ${y}, 'keyword')`);
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x', recipients: [x, y] });
    expect(res.body).toMatchObject({ recipients_queued: 1, opted_out_count: 1, credits_used: 1, credits_remaining: 4 });
  });

  it('is all or nothing on credits: 402 and nothing queued', async () => {
    const a = await createAccount(t.app, { credits: 2 });
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x', recipients: [mobile(), mobile(), mobile()] });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'insufficient_credits', credits_required: 3, credits_available: 2 });
    const [count] = (await t.services.db.execute(sql`select count(*)::int as n from messages where account_id = ${a.accountId}`) as unknown as { rows: Array<{ n: number }> }).rows;
    expect(count!.n).toBe(0);
    const [camps] = (await t.services.db.execute(sql`select count(*)::int as n from campaigns where account_id = ${a.accountId}`) as unknown as { rows: Array<{ n: number }> }).rows;
    expect(camps!.n).toBe(0);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body.credits).toBe(2);
  });

  it('takes 1,000 recipients in one call and refuses 1,001', async () => {
    const a = await createAccount(t.app, { credits: 1000 });
    const recipients = Array.from({ length: 1000 }, (_, i) => `+614${String(10_000_000 + i).slice(-8)}`);
    const ok = await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x', recipients });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ recipients_queued: 1000, credits_used: 1000, credits_remaining: 0 });
    const c = await campaignMessages(a.apiKey, ok.body.campaign_id as string);
    expect(c.stats.total).toBe(1000);
    const tooMany = await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x', recipients: [...recipients, '+61412345678'] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe('validation_failed');
  });

  it('writes one ledger row per batch with the balance after it', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x', recipients: [mobile(), mobile(), mobile()] });
    const ledger = (await t.services.db.execute(sql`select kind, delta, balance_after, campaign_id from credit_ledger where account_id = ${a.accountId} order by id`) as unknown as { rows: unknown[] }).rows;
    expect(ledger).toEqual([
      { kind: 'grant', delta: 10, balance_after: 10, campaign_id: null },
      { kind: 'send', delta: -3, balance_after: 7, campaign_id: res.body.campaign_id },
    ]);
  });

  it('answers 400 for empty recipients, wrong merge value types and a bad sender', async () => {
    const a = await createAccount(t.app);
    const empty = await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x', recipients: [] });
    expect(empty.status).toBe(400);
    const badMerge = await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x', recipients: [{ phone: mobile(), merge_data: { n: 1 } }] });
    expect(badMerge.status).toBe(400);
    const sender = await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x', recipients: [mobile()], sender: 'NotMine' });
    expect(sender.status).toBe(400);
    expect(sender.body.code).toBe('sender_not_allowed');
  });

  it('gives each recipient its own opt-out link', async () => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'Stop: {{OptOutLink}}', recipients: [mobile(), mobile()] });
    const c = await campaignMessages(a.apiKey, res.body.campaign_id as string);
    const links = c.messages.map((m) => m.body);
    expect(new Set(links).size).toBe(2);
    for (const l of links) expect(l).toMatch(/^Stop: http:\/\/.+\/o\/[0-9A-Za-z]{7}$/);
  });
});

describe('recipients as the client libraries write them', () => {
  it('reads {to, name} as {phone: to, merge_data: {name}}, with {name} in single braces filled', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const [x, y] = [mobile(), mobile()];
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [{ to: x, name: 'Ana' }, { to: `0${y.slice(3)}`, name: 'Ben' }], message: 'Hi {name} / {{name}}' });
    expect(res.status).toBe(200);
    const c = await campaignMessages(a.apiKey, res.body.campaign_id as string);
    expect(Object.fromEntries(c.messages.map((m) => [m.recipient, m.body]))).toEqual({ [x]: 'Hi Ana / Ana', [y]: 'Hi Ben / Ben' });
    const wrong = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [{ to: x, age: 3 }], message: 'x' });
    expect(wrong.status).toBe(400);
  });
});
