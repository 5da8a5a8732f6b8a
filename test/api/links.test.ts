// Link tracking: URLs become short links at send time, the short link redirects and counts the
// click, GET /message/{id} shows it, and an opted-in endpoint (a real HTTP receiver) gets message.click.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/client.ts';
import { clearMessageBodies } from '../../src/modules/retention/retention.repo.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { pollUntil } from '../support/poll.ts';
import { call, createAccount, mobile, type TestAccount } from '../support/factories.ts';
import { useReceivers } from '../support/webhook-receiver.ts';
import { expectVerifiedEveryWay } from '../support/webhook-verify.ts';

const PHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const IMESSAGE_PREVIEW_UA = 'facebookexternalhit/1.1 Facebot Twitterbot/1.0';
const LONG_URL = `https://shop.example.com/orders/${'a1b2c3d4'.repeat(25)}?utm_source=sms`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_RETRY_DELAYS: '0.05,0.1', WEBHOOK_ALLOW_PRIVATE: 'true' }, { workers: true });
});
afterAll(async () => { await t?.close(); });

const receiver = useReceivers();

type Link = { url: string | null; short_url: string; clicks: number; first_clicked_at: string | null; last_clicked_at: string | null };

async function send(a: TestAccount, body: Record<string, unknown>) {
  const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { message_id: string; credits_used: number };
}

async function message(a: TestAccount, id: string) {
  const res = await call(t.app, a.apiKey, 'GET', `/message/${id}`);
  expect(res.status).toBe(200);
  return res.body as { message: { body: string }; links: Link[] };
}

// The short links share the opt-out pages' per-address limit: each visit comes from an address of its own.
let address = 0;
const nextAddress = () => `198.51.100.${(address++ % 250) + 1}`;

/** Follows a short link as a phone (or the given User-Agent) would: the path of short_url on this app. */
function visit(shortUrl: string, opts: { userAgent?: string; method?: 'GET' | 'HEAD' } = {}) {
  return t.app.inject({
    method: opts.method ?? 'GET', url: new URL(shortUrl).pathname, remoteAddress: nextAddress(),
    headers: { 'user-agent': opts.userAgent ?? PHONE_UA },
  });
}

describe('sending with link_tracking', () => {
  it('replaces the URL by a short link on the opt-out base and counts credits after shortening', async () => {
    const a = await createAccount(t.app, { credits: 100 });
    const text = `Your order is on its way: ${LONG_URL}`;
    const untracked = await send(a, { message: text });
    expect(untracked.credits_used).toBe(2);
    const sent = await send(a, { message: text, link_tracking: true });
    expect(sent.credits_used).toBe(1);

    const m = await message(a, sent.message_id);
    expect(m.links).toHaveLength(1);
    const [link] = m.links;
    expect(link).toEqual({ url: LONG_URL, short_url: expect.any(String), clicks: 0, first_clicked_at: null, last_clicked_at: null });
    expect(link!.short_url).toMatch(new RegExp(`^${t.config.optoutLinkBase}/[0-9A-Za-z]{8}$`));
    expect(m.message.body).toBe(`Your order is on its way: ${link!.short_url}`);

    const plain = await message(a, untracked.message_id);
    expect(plain.links).toEqual([]);
    expect(plain.message.body).toBe(text);
  });

  it('follows the account\'s link_tracking setting unless the send says otherwise', async () => {
    const a = await createAccount(t.app, { credits: 100 });
    expect((await call(t.app, a.apiKey, 'PUT', '/settings', { link_tracking: true })).status).toBe(200);
    const byDefault = await send(a, { message: 'See https://a.example/d' });
    expect((await message(a, byDefault.message_id)).links).toHaveLength(1);
    const refused = await send(a, { message: 'See https://a.example/d', link_tracking: false });
    expect((await message(a, refused.message_id)).links).toEqual([]);
    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [mobile()], message: 'See https://a.example/b' });
    const [item] = (await call(t.app, a.apiKey, 'GET', `/campaign/${batch.body.campaign_id as string}`)).body.messages as Array<{ id: string; body: string }>;
    expect(item!.body).toMatch(new RegExp(`^See ${t.config.optoutLinkBase}/[0-9A-Za-z]{8}$`));
    expect((await message(a, item!.id)).links).toHaveLength(1);
  });

  it('leaves the opt-out link alone and gives every URL its own code', async () => {
    const a = await createAccount(t.app, { credits: 100 });
    const sent = await send(a, { message: 'A https://a.example/1 B http://b.example/2. Opt out: {{OptOutLink}}', link_tracking: true });
    const m = await message(a, sent.message_id);
    expect(m.links.map((l) => l.url)).toEqual(['https://a.example/1', 'http://b.example/2']);
    expect(new Set(m.links.map((l) => l.short_url)).size).toBe(2);
    const optout = m.message.body.split('Opt out: ')[1]!;
    expect(new URL(optout).pathname).toMatch(/\/[0-9A-Za-z]{7}$/);
    const page = await t.app.inject({ method: 'GET', url: new URL(optout).pathname, remoteAddress: nextAddress() });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Stop messages');
  });

  it('shortens per recipient in a batch, after merge fields, and previews the same length', async () => {
    const a = await createAccount(t.app, { credits: 100 });
    const recipients = [{ phone: mobile(), merge_data: { token: 'x'.repeat(180) } }, { phone: mobile(), merge_data: { token: 'y' } }];
    const body = { recipients, message: 'Reset: https://app.example/r/{{token}}', link_tracking: true };
    const preview = await call(t.app, a.apiKey, 'POST', '/send-batch/preview', body);
    expect(preview.status).toBe(200);
    const previewed = preview.body.recipients as Array<{ text: string; parts: number }>;
    expect(previewed.map((r) => r.parts)).toEqual([1, 1]);
    expect(previewed[0]!.text).toMatch(new RegExp(`^Reset: ${t.config.optoutLinkBase}/[0-9A-Za-z]{8}$`));

    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', body);
    expect(batch.status).toBe(200);
    expect(batch.body.credits_used).toBe(2);
    const list = await call(t.app, a.apiKey, 'GET', `/campaign/${batch.body.campaign_id as string}`);
    const ids = (list.body.messages as Array<{ id: string }>).map((x) => x.id);
    const links = await Promise.all(ids.map(async (id) => (await message(a, id)).links));
    expect(links.map((l) => l.length)).toEqual([1, 1]);
    expect(links.flat().map((l) => l.url).sort()).toEqual(['https://app.example/r/' + 'x'.repeat(180), 'https://app.example/r/y']);
    expect(links[0]![0]!.short_url).not.toBe(links[1]![0]!.short_url);
  });

  it('writes nothing when the batch cannot be paid for', async () => {
    const a = await createAccount(t.app, { credits: 1 });
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [mobile(), mobile()], message: 'See https://a.example/x', link_tracking: true });
    expect(res.status).toBe(402);
    const [found] = await rows<{ n: number }>(t.services.db, sql`select count(*)::int as n from message_links where account_id = ${a.accountId}`);
    expect(found!.n).toBe(0);
  });
});

describe('the short link', () => {
  it('answers 302 to the original URL, counts the click, and shows it on the message', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const sent = await send(a, { message: 'Tickets: https://tickets.example/e/42?seat=A1', link_tracking: true });
    const [link] = (await message(a, sent.message_id)).links;

    const first = await visit(link!.short_url);
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe('https://tickets.example/e/42?seat=A1');
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    const once = (await message(a, sent.message_id)).links[0]!;
    expect(once.clicks).toBe(1);
    expect(once.first_clicked_at).not.toBeNull();
    expect(once.last_clicked_at).toBe(once.first_clicked_at);

    expect((await visit(link!.short_url)).statusCode).toBe(302);
    const twice = (await message(a, sent.message_id)).links[0]!;
    expect(twice.clicks).toBe(2);
    expect(twice.first_clicked_at).toBe(once.first_clicked_at);
    expect(Date.parse(twice.last_clicked_at!)).toBeGreaterThanOrEqual(Date.parse(once.first_clicked_at!));
  });

  it('sends a URL with non-ASCII characters as a valid Location header', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const sent = await send(a, { message: 'Party https://münchen.example/fest/🎉?q=日本 tonight', link_tracking: true });
    const [link] = (await message(a, sent.message_id)).links;
    expect(link!.url).toBe('https://münchen.example/fest/🎉?q=日本');
    const res = await visit(link!.short_url);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://xn--mnchen-3ya.example/fest/%F0%9F%8E%89?q=%E6%97%A5%E6%9C%AC');
  });

  it('redirects link previews, HEAD and agent-less requests without counting them', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const sent = await send(a, { message: 'Menu https://cafe.example/menu', link_tracking: true });
    const [link] = (await message(a, sent.message_id)).links;
    for (const opts of [{ userAgent: IMESSAGE_PREVIEW_UA }, { userAgent: 'WhatsApp/2.23.20.0 A' }, { userAgent: '' }, { method: 'HEAD' as const }]) {
      const res = await visit(link!.short_url, opts);
      expect(res.statusCode, JSON.stringify(opts)).toBe(302);
      expect(res.headers.location).toBe('https://cafe.example/menu');
    }
    expect((await message(a, sent.message_id)).links[0]!.clicks).toBe(0);
    await visit(link!.short_url);
    expect((await message(a, sent.message_id)).links[0]!.clicks).toBe(1);
  });

  it.each(['ZZZZZZZZ', 'Ab3dE9xYZ', 'short', '%2e%2e%2fadmin'])('answers 404 for the unknown code %j', async (code) => {
    const base = new URL(t.config.optoutLinkBase).pathname;
    const res = await t.app.inject({ method: 'GET', url: `${base}/${code}`, remoteAddress: nextAddress(), headers: { 'user-agent': PHONE_UA } });
    expect(res.statusCode).toBe(404);
    expect(res.headers.location).toBeUndefined();
  });

  it('answers 404 once the message is past retention, keeping the count', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const sent = await send(a, { message: 'Old https://old.example/x', link_tracking: true });
    const [link] = (await message(a, sent.message_id)).links;
    await visit(link!.short_url);
    await t.services.db.execute(sql`update messages set created_at = now() - interval '400 days' where id = ${sent.message_id}`);
    // The retention job skips a row the workers hold (SKIP LOCKED: the dispatcher or a receipt may be on it right
    // now) and takes it on its next run, so the test runs it the same way: again, until this message's body is gone.
    await pollUntil(async () => {
      await clearMessageBodies(t.services.db, { cutoff: new Date(Date.now() - 365 * 86_400_000), now: new Date(), limit: 1000 });
      const [row] = await rows<{ cleared: boolean }>(t.services.db, sql`select body is null as cleared from messages where id = ${sent.message_id}`);
      return row?.cleared ?? false;
    }, (cleared) => cleared, 'retention to clear the message body');
    expect((await visit(link!.short_url)).statusCode).toBe(404);
    expect((await message(a, sent.message_id)).links[0]).toMatchObject({ url: null, clicks: 1 });
  });

  it('is not shown to another tenant', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const b = await createAccount(t.app, { credits: 10 });
    const sent = await send(a, { message: 'Private https://a.example/p', link_tracking: true });
    const [link] = (await message(a, sent.message_id)).links;
    await visit(link!.short_url);
    const other = await call(t.app, b.apiKey, 'GET', `/message/${sent.message_id}`);
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain('a.example');
  });
});

describe('the message.click webhook', () => {
  it('reaches an endpoint that opted in, signed, and only that account\'s', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const b = await createAccount(t.app, { credits: 10 });
    const ra = await receiver();
    const rb = await receiver();
    const put = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: `${ra.url}/clicks`, events: ['message.click'] });
    expect(put.status).toBe(200);
    expect((put.body.delivery_receipt as { events: string[] }).events).toEqual(['message.click']);
    const secret = (put.body.delivery_receipt as { secret: string }).secret;
    expect((await call(t.app, b.apiKey, 'PUT', '/webhooks/delivery', { url: `${rb.url}/clicks`, events: ['message.click'] })).status).toBe(200);
    expect(((await call(t.app, a.apiKey, 'GET', '/webhooks')).body.delivery_receipt as { events: string[] }).events).toEqual(['message.click']);

    const sent = await send(a, { message: 'Book https://book.example/slot', link_tracking: true, metadata: { booking: 'b-17' } });
    const [link] = (await message(a, sent.message_id)).links;
    await visit(link!.short_url, { userAgent: IMESSAGE_PREVIEW_UA });
    await visit(link!.short_url);

    const [req] = await ra.waitFor(1, 15_000);
    expect(req!.headers['x-service-event']).toBe('message.click');
    await expectVerifiedEveryWay(req!, secret);
    const event = JSON.parse(req!.body) as Record<string, unknown>;
    const shown = (await message(a, sent.message_id)).links[0]!;
    expect(event).toEqual({
      event: 'message.click', message_id: sent.message_id, recipient: expect.stringMatching(/^\+61/),
      url: 'https://book.example/slot', short_url: link!.short_url, clicked_at: shown.first_clicked_at, clicks: 1,
      first_clicked_at: shown.first_clicked_at, metadata: { booking: 'b-17' },
    });
    // Only the click, not the preview, nor the message.dlr the endpoint did not list.
    const log = await call(t.app, a.apiKey, 'GET', '/webhooks/deliveries');
    expect((log.body.deliveries as Array<{ event: string }>).map((d) => d.event)).toEqual(['message.click']);
    expect(rb.requests).toEqual([]);
    expect((await call(t.app, b.apiKey, 'GET', '/webhooks/deliveries')).body.total).toBe(0);
  });

  it('is not recorded for an endpoint that did not opt in', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const r = await receiver();
    const put = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: `${r.url}/dlr` });
    expect((put.body.delivery_receipt as { events: string[] }).events).toEqual(['message.dlr']);
    const sent = await send(a, { message: 'Hi https://x.example/1', link_tracking: true });
    await visit((await message(a, sent.message_id)).links[0]!.short_url);
    expect((await message(a, sent.message_id)).links[0]!.clicks).toBe(1);
    const clicks = await call(t.app, a.apiKey, 'GET', '/webhooks/deliveries?event=message.click');
    expect(clicks.body.total).toBe(0);
  });

  it('keeps the list on an update that omits it, and refuses events an endpoint does not offer', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'http://127.0.0.1:9/a', events: ['message.dlr', 'message.click', 'message.click'] });
    const again = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'http://127.0.0.1:9/b' });
    expect((again.body.delivery_receipt as { events: string[] }).events).toEqual(['message.dlr', 'message.click']);
    const wrong = await call(t.app, a.apiKey, 'PUT', '/webhooks/inbound', { url: 'http://127.0.0.1:9/c', events: ['message.click'] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('validation_failed');
    const unknown = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'http://127.0.0.1:9/c', events: ['message.open'] });
    expect(unknown.status).toBe(400);
  });
});
