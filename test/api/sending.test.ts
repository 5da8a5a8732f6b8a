import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });


describe('POST /send', () => {
  it('queues a message, charges one credit and reads back', async () => {
    const a = await createAccount(t.app);
    const to = mobile();
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'Hello from Tasman' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message_id: expect.stringMatching(/^[0-9a-f-]{36}$/), credits_used: 1, credits_remaining: 4, recipient: to, segments: 1,
    });

    const got = await call(t.app, a.apiKey, 'GET', `/message/${res.body.message_id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      message: {
        id: res.body.message_id, recipient: to, sender: '+61480000000', body: 'Hello from Tasman', status: 'queued',
        parts: 1, campaign_id: null, created_at: expect.stringMatching(/Z$/), sent_at: null,
        scheduled_at: null, error_code: null, error_message: null, metadata: null,
      },
      delivery_receipt: null,
      intermediate_receipt: null,
      links: [],
    });
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 4 });
  });

  it.each([
    ['0412 345 678', '+61412345678'],
    ['61412345678', '+61412345678'],
    ['(04) 1234-5678', '+61412345678'],
    ['+64 21 123 4567', '+64211234567'],
    ['64 21 123 4567', '+64211234567'],
  ])('accepts %s as %s, with the NZ shared sender for NZ', async (input, e164) => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: input, message: 'x' });
    expect(res.status).toBe(200);
    expect(res.body.recipient).toBe(e164);
    const got = await call(t.app, a.apiKey, 'GET', `/message/${res.body.message_id}`);
    const message = got.body.message as Record<string, unknown>;
    expect(message.recipient).toBe(e164);
    expect(message.sender).toBe(e164.startsWith('+64') ? '+64220000000' : '+61480000000');
  });

  it.each([
    [160, 1], [161, 2], [308, 2], [309, 3],
  ])('a %i-character message costs %i credits', async (length, parts) => {
    const a = await createAccount(t.app, { credits: 10 });
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'a'.repeat(length) });
    expect(res.status).toBe(200);
    expect(res.body.credits_used).toBe(parts);
    expect(res.body.credits_remaining).toBe(10 - parts);
  });

  it('counts emoji as one character each', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: '😀'.repeat(160) });
    expect(res.body.credits_used).toBe(1);
  });

  it.each([
    ['+1 555 0100', 'invalid_number'],
    ['0298765432x', 'invalid_number'],
    ['+61298765432', 'invalid_number'],
    ['hello', 'invalid_number'],
  ])('refuses %s with 400 %s and charges nothing', async (to, code) => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body.credits).toBe(5);
  });

  it('answers 402 with the amounts when credits run short, and writes nothing', async () => {
    const a = await createAccount(t.app, { credits: 2 });
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'a'.repeat(400) });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'insufficient_credits', credits_required: 3, credits_available: 2 });
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body.credits).toBe(2);
  });

  it('refuses an account with no credits at all', async () => {
    const a = await createAccount(t.app, { credits: 0 });
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x' });
    expect(res.status).toBe(402);
  });

  it('validates types, sizes and presence with details', async () => {
    const a = await createAccount(t.app);
    const cases: Array<[unknown, string]> = [
      [{ to: 61412345678, message: 'x' }, 'to'],
      [{ to: '+61412345678' }, 'message'],
      [{ message: 'x' }, 'to'],
      [{ to: '+61412345678', message: '' }, 'message'],
      [{ to: '+61412345678', message: 'x', campaign: 'c'.repeat(201) }, 'campaign'],
      [{ to: '+61412345678', message: ['x'] }, 'message'],
      [[1, 2], 'body'],
    ];
    for (const [payload, field] of cases) {
      const res = await call(t.app, a.apiKey, 'POST', '/send', payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect((res.body.details as Array<{ field: string }>).map((d) => d.field), JSON.stringify(payload)).toContain(field);
    }
  });

  it('refuses a message over 1,600 characters', async () => {
    const a = await createAccount(t.app, { credits: 100 });
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'a'.repeat(1601) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('message_too_long');
  });

  it('answers 400 for bad JSON, 415 for another content type and 413 for a huge body', async () => {
    const a = await createAccount(t.app);
    const bad = await t.app.inject({ method: 'POST', url: '/send', headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' }, payload: '{"to": ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('invalid_json');
    const text = await t.app.inject({ method: 'POST', url: '/send', headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'text/plain' }, payload: 'hello' });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('unsupported_media_type');
    const huge = await t.app.inject({ method: 'POST', url: '/send', headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' }, payload: JSON.stringify({ to: '+61412345678', message: 'x'.repeat(2_000_000) }) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('payload_too_large');
  });

  it('ignores unknown fields such as link_tracking', async () => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x', link_tracking: true });
    expect(res.status).toBe(200);
  });

  it('refuses an opted-out recipient with 400 and charges nothing', async () => {
    const a = await createAccount(t.app);
    const to = mobile();
    await t.services.db.execute((await import('drizzle-orm')).sql`insert into optouts (account_id, number, source) values (${a.accountId}, ${to}, 'api')`);
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('recipient_opted_out');
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body.credits).toBe(5);
    const list = await call(t.app, a.apiKey, 'GET', '/optouts');
    expect(list.body.optouts).toEqual([{ number: to, created_at: expect.any(String), source: 'api', inbound_message_id: null, inbound_body: null, message_id: null, contact_name: null }]);
  });

  it('replaces {{OptOutLink}} with a per-message short link before counting parts', async () => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'Sale! Opt out: {{OptOutLink}}' });
    const got = await call(t.app, a.apiKey, 'GET', `/message/${res.body.message_id}`);
    const body = (got.body.message as { body: string }).body;
    expect(body).toMatch(new RegExp(`^Sale! Opt out: ${t.config.optoutLinkBase}/[0-9A-Za-z]{7}$`));
  });
});

describe('senders', () => {
  it('uses a registered Sender ID only for the matching ABN', async () => {
    const abn = `${Date.now()}`.slice(-11).padStart(11, '5');
    const a = await createAccount(t.app, { abn });
    const other = await createAccount(t.app, { abn: '11111111111' });
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: 'ACMEShop', abn })).status).toBe(201);
    const ok = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x', sender: 'acmeshop' });
    expect(ok.status).toBe(200);
    const got = await call(t.app, a.apiKey, 'GET', `/message/${ok.body.message_id}`);
    expect((got.body.message as { sender: string }).sender).toBe('ACMEShop');
    const refused = await call(t.app, other.apiKey, 'POST', '/send', { to: mobile(), message: 'x', sender: 'ACMEShop' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('sender_not_allowed');
    expect((await call(t.app, other.apiKey, 'GET', '/balance')).body.credits).toBe(5);
  });

  it('uses the account\'s dedicated number by default and accepts `from` as an alias', async () => {
    const a = await createAccount(t.app);
    const number = mobile();
    expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: a.accountId })).status).toBe(201);
    const plain = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x' });
    const viaFrom = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x', from: number });
    for (const res of [plain, viaFrom]) {
      const got = await call(t.app, a.apiKey, 'GET', `/message/${res.body.message_id}`);
      expect((got.body.message as { sender: string }).sender).toBe(number);
    }
    const stranger = await createAccount(t.app);
    const refused = await call(t.app, stranger.apiKey, 'POST', '/send', { to: mobile(), message: 'x', sender: number });
    expect(refused.body.code).toBe('sender_not_allowed');
  });
});

describe('campaigns on /send', () => {
  it('rolls up recipient count and credits under one name', async () => {
    const a = await createAccount(t.app, { credits: 20 });
    const first = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x', campaign: 'Spring' });
    await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'a'.repeat(200), campaign: 'Spring' });
    const m = await call(t.app, a.apiKey, 'GET', `/message/${first.body.message_id}`);
    const campaignId = (m.body.message as { campaign_id: string }).campaign_id;
    const c = await call(t.app, a.apiKey, 'GET', `/campaign/${campaignId}`);
    expect(c.status).toBe(200);
    expect(c.body.campaign).toMatchObject({ id: campaignId, name: 'Spring', recipient_count: 2, total_credits: 3, status: 'sending' });
    expect(c.body.stats).toEqual({ total: 2, queued: 2, sent: 0, delivered: 0, failed: 0, scheduled: 0, cancelled: 0 });
    expect(c.body.messages).toHaveLength(2);
  });
});

describe('tenancy', () => {
  it('another account\'s message and campaign answer 404 like missing ones', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x', campaign: 'Mine' });
    const m = await call(t.app, a.apiKey, 'GET', `/message/${sent.body.message_id}`);
    const campaignId = (m.body.message as { campaign_id: string }).campaign_id;
    const theirs = await call(t.app, b.apiKey, 'GET', `/message/${sent.body.message_id}`);
    const missing = await call(t.app, b.apiKey, 'GET', '/message/01a1fc97-f1e8-765e-92c4-fdeb302ed871');
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(missing.body);
    expect((await call(t.app, b.apiKey, 'GET', `/campaign/${campaignId}`)).status).toBe(404);
  });

  it('a malformed id is a 400, never a 500; on /message a non-UUID is an idempotency key, unknown is 404', async () => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'GET', '/campaign/123');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    for (const url of ['/message/not-a-uuid', "/message/'%20or%201=1"]) {
      const missing = await call(t.app, a.apiKey, 'GET', url);
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('not_found');
    }
  });

  it('unknown routes answer a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'route_not_found' });
  });
});
