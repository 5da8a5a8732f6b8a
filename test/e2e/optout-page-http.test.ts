// The one-tap opt-out link over HTTP (inject): what GET and POST record, 404s, retention, limits, headers.
// The browser flow is in optout-page.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile, type TestAccount } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

let addressSeq = 0;
/** A client address of its own per test, so the per-address page limit never couples tests. */
const newAddress = () => `198.51.100.${++addressSeq}`;

async function sendWithLink(a: TestAccount, to = mobile()) {
  const sent = await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'Spring sale on now. Opt out: {{OptOutLink}}' });
  expect(sent.status).toBe(200);
  const got = await call(t.app, a.apiKey, 'GET', `/message/${String(sent.body.message_id)}`);
  const body = (got.body.message as { body: string }).body;
  const match = /(https?:\/\/\S+)\/([0-9A-Za-z]{7})$/.exec(body);
  if (!match) throw new Error(`no opt-out link in ${body}`);
  return { to, base: match[1]!, code: match[2]!, messageId: sent.body.message_id as string };
}

const page = (method: 'GET' | 'POST' | 'HEAD', url: string, remoteAddress: string, extra: Record<string, unknown> = {}) =>
  t.app.inject({ method, url, remoteAddress, ...extra });

const optouts = async (a: TestAccount) => (await call(t.app, a.apiKey, 'GET', '/optouts')).body.optouts as Array<{ number: string; source: string }>;

describe('the link in the message', () => {
  it('is OPTOUT_LINK_BASE/<7 base62 characters>, unique per recipient', async () => {
    const a = await createAccount(t.app);
    const one = await sendWithLink(a);
    const two = await sendWithLink(a);
    expect(one.base).toBe(t.config.optoutLinkBase);
    expect(one.code).not.toBe(two.code);
  });
});

describe('GET /o/:code', () => {
  it('shows the business and the masked number, with one form posting back, and records nothing', async () => {
    const a = await createAccount(t.app, { name: 'Bondi <Surf> & Co' });
    const { to, code } = await sendWithLink(a, '+61412345678');
    const ip = newAddress();
    for (let i = 0; i < 3; i++) {
      const res = await page('GET', `/o/${code}`, ip);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toContain('noindex');
      expect(res.body).toContain('Stop messages from Bondi &lt;Surf&gt; &amp; Co?');
      expect(res.body).toContain('+61 4•• ••• 678');
      expect(res.body).not.toContain(to);
      expect(res.body).toContain(`<form method="post" action="/o/${code}">`);
    }
    expect((await page('HEAD', `/o/${code}`, ip)).statusCode).toBe(200);
    expect(await optouts(a)).toEqual([]);
    // And sending still works.
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'still here' })).status).toBe(200);
  });

  it.each(['AAAAAAA', 'abc', 'Ab3dE9xx', 'Ab3dE9-', '%3Cscript%3E', 'x'.repeat(80)])('answers an HTML 404 for %j', async (code) => {
    const res = await page('GET', `/o/${code}`, newAddress());
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain("This link isn't valid");
    expect(res.body).not.toContain('<script>');
  });

  it('answers an HTML 404 under the prefix, while API 404s stay JSON', async () => {
    const res = await page('GET', '/o/', newAddress());
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain("This link isn't valid");
    const api = await t.app.inject({ method: 'GET', url: '/no-such-route' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'route_not_found' });
  });

  it('works on any Host header (a short domain can point at the service)', async () => {
    const a = await createAccount(t.app);
    const { code } = await sendWithLink(a);
    const res = await page('GET', `/o/${code}`, newAddress(), { headers: { host: 'stop.example' } });
    expect(res.statusCode).toBe(200);
  });

  it('is a 404 once retention has removed the message content', async () => {
    const a = await createAccount(t.app);
    const { code, messageId } = await sendWithLink(a);
    await t.services.db.execute(sql`update messages set body = null, optout_code = null, content_deleted_at = now() where id = ${messageId}`);
    expect((await page('GET', `/o/${code}`, newAddress())).statusCode).toBe(404);
    expect((await page('POST', `/o/${code}`, newAddress())).statusCode).toBe(404);
  });
});

describe('POST /o/:code', () => {
  it('records the opt-out with source link, idempotently, and the next send is refused', async () => {
    const a = await createAccount(t.app, { name: 'Tui Books' });
    const { to, code } = await sendWithLink(a);
    const ip = newAddress();
    const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };
    const res = await page('POST', `/o/${code}`, ip, form);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain("You're unsubscribed");
    expect(res.body).toContain('Tui Books');
    expect(await optouts(a)).toEqual([expect.objectContaining({ number: to, source: 'link' })]);

    // Again, without a body or content type: same page, still one entry.
    const again = await page('POST', `/o/${code}`, ip);
    expect(again.statusCode).toBe(200);
    expect(await optouts(a)).toHaveLength(1);

    const refused = await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'hello?' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('recipient_opted_out');
  });

  it('opts out only from the account that sent the message', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    const to = mobile();
    const { code } = await sendWithLink(a, to);
    expect((await page('POST', `/o/${code}`, newAddress())).statusCode).toBe(200);
    expect(await optouts(b)).toEqual([]);
    expect((await call(t.app, b.apiKey, 'POST', '/send', { to, message: 'hi' })).status).toBe(200);
  });

  it('accepts a form body with fields and a 404s an unknown code without recording anything', async () => {
    const res = await page('POST', '/o/ZZZZZZZ', newAddress(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'confirm=1',
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain("This link isn't valid");
  });

  it('needs no API key, and ignores one', async () => {
    const a = await createAccount(t.app);
    const { code } = await sendWithLink(a);
    const res = await page('GET', `/o/${code}`, newAddress(), { headers: { authorization: 'Bearer nonsense' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('per-address rate limit', () => {
  it('answers 429 with an HTML page and Retry-After past 10 requests a second from one address', async () => {
    const ip = newAddress();
    const results = await Promise.all(Array.from({ length: 15 }, () => page('GET', '/o/AAAAAAA', ip)));
    const limited = results.filter((r) => r.statusCode === 429);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    expect(limited[0]!.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.body).toContain('Please wait a moment');
    // Another address is unaffected.
    expect((await page('GET', '/o/AAAAAAA', newAddress())).statusCode).toBe(404);
  });
});
