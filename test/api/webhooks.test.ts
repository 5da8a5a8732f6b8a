import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount } from '../support/factories.ts';
import { rows } from '../../src/platform/db/client.ts';
import { open } from '../../src/platform/crypto/secret-box.ts';
import { recordEvent } from '../../src/modules/webhooks/outbox.ts';

let t: TestApp;
let prod: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  prod = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'false' });
});
afterAll(async () => {
  await t?.close();
  await prod?.close();
});

const ID = '01a1fc97-f1e8-765e-92c4-fdeb302ed871';

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('webhook configuration', () => {
  it('starts unconfigured', async () => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'GET', '/webhooks');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ delivery_receipt: null, inbound: null });
  });

  it('creates and updates each endpoint separately', async () => {
    const a = await createAccount(t.app);
    const put = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://hooks.example.com/dlr', enabled: true });
    expect(put.status).toBe(200);
    // Secure by default: the secret is generated with the endpoint and shown once, here.
    const secretPattern = expect.stringMatching(/^whsec_[A-Za-z0-9+/]{44}$/);
    expect(put.body).toEqual({
      delivery_receipt: {
        url: 'https://hooks.example.com/dlr', enabled: true, signing_enabled: true, disabled_reason: null, events: ['message.dlr'],
        created_at: iso, updated_at: iso, secret: secretPattern,
      },
    });
    const inbound = await call(t.app, a.apiKey, 'PUT', '/webhooks/inbound', { url: 'https://hooks.example.com/in', enabled: false });
    expect(inbound.body).toEqual({
      inbound: {
        url: 'https://hooks.example.com/in', enabled: false, signing_enabled: true, disabled_reason: null, events: ['message.inbound'],
        created_at: iso, updated_at: iso, secret: secretPattern,
      },
    });
    expect((inbound.body.inbound as { secret: string }).secret).not.toBe((put.body.delivery_receipt as { secret: string }).secret);
    expect((await call(t.app, a.apiKey, 'GET', '/webhooks')).body).toEqual({
      delivery_receipt: { url: 'https://hooks.example.com/dlr', enabled: true, signing_enabled: true, disabled_reason: null, events: ['message.dlr'], created_at: iso, updated_at: iso },
      inbound: { url: 'https://hooks.example.com/in', enabled: false, signing_enabled: true, disabled_reason: null, events: ['message.inbound'], created_at: iso, updated_at: iso },
    });

    const changed = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://hooks.example.com/v2', enabled: false });
    const detail = changed.body.delivery_receipt as Record<string, string>;
    expect(detail).toMatchObject({ url: 'https://hooks.example.com/v2', enabled: false });
    expect(detail).not.toHaveProperty('secret');
    expect(detail.created_at).toBe((put.body.delivery_receipt as Record<string, string>).created_at);
    expect(Date.parse(detail.updated_at!)).toBeGreaterThanOrEqual(Date.parse(detail.created_at!));
    // enabled omitted: true on create, unchanged on update
    const again = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://hooks.example.com/v3' });
    expect(again.body.delivery_receipt).toMatchObject({ url: 'https://hooks.example.com/v3', enabled: false });
  });

  it('keeps each account to its own configuration', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://a.example.com/', enabled: true });
    expect((await call(t.app, b.apiKey, 'GET', '/webhooks')).body).toEqual({ delivery_receipt: null, inbound: null });
  });

  it.each([
    [{ enabled: true }, 'validation_failed'],
    [{ url: 42, enabled: true }, 'validation_failed'],
    [{ url: 'https://x.example.com', enabled: 'yes' }, 'validation_failed'],
    [{ url: '', enabled: true }, 'validation_failed'],
    [{ url: 'not a url', enabled: true }, 'invalid_webhook_url'],
    [{ url: 'ftp://x.example.com/', enabled: true }, 'invalid_webhook_url'],
  ])('refuses %j with 400 %s', async (payload, code) => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', payload);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
  });

  it('allows http and loopback in development mode', async () => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'PUT', '/webhooks/inbound', { url: 'http://127.0.0.1:8080/hook', enabled: true });
    expect(res.status).toBe(200);
  });
});

describe('SSRF refusals on save (production mode, WEBHOOK_ALLOW_PRIVATE=false)', () => {
  it.each([
    ['https://127.0.0.1/hook', 'webhook_url_not_public'],
    ['https://10.1.2.3/hook', 'webhook_url_not_public'],
    ['https://169.254.169.254/latest/meta-data/', 'webhook_url_not_public'],
    ['https://[::1]/hook', 'webhook_url_not_public'],
    ['https://[::ffff:127.0.0.1]/hook', 'webhook_url_not_public'],
    ['https://192.168.1.10/hook', 'webhook_url_not_public'],
    ['https://localhost/hook', 'webhook_url_not_public'],
    ['http://93.184.216.34/hook', 'webhook_url_https_required'],
  ])('refuses %s (%s) and stores nothing', async (url, code) => {
    const a = await createAccount(prod.app);
    for (const path of ['/webhooks/delivery', '/webhooks/inbound']) {
      const res = await call(prod.app, a.apiKey, 'PUT', path, { url, enabled: true });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code, error: expect.stringContaining('not allowed') });
    }
    expect((await call(prod.app, a.apiKey, 'GET', '/webhooks')).body).toEqual({ delivery_receipt: null, inbound: null });
  });

  it('accepts a public https address', async () => {
    const a = await createAccount(prod.app);
    const res = await call(prod.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://93.184.216.34/hook', enabled: true });
    expect(res.status).toBe(200);
  });
});

describe('secret rotation', () => {
  it('is 404 before the URL is set, and creates nothing', async () => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'POST', '/webhooks/delivery');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('webhook_not_configured');
    expect((await call(t.app, a.apiKey, 'GET', '/webhooks')).body).toEqual({ delivery_receipt: null, inbound: null });
  });

  it('returns a new secret once, enables signing, and stores it sealed', async () => {
    const a = await createAccount(t.app);
    await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://hooks.example.com/dlr', enabled: true });
    await call(t.app, a.apiKey, 'PUT', '/webhooks/inbound', { url: 'https://hooks.example.com/in', enabled: true });
    // An endpoint saved before secrets came with PUT: no secret until the first rotation.
    await t.services.db.execute(sql`update webhook_endpoints set secret_sealed = null where account_id = ${a.accountId} and kind = 'inbound'`);
    // Bodyless POST without Content-Type, as the client libraries send it.
    const first = await t.app.inject({ method: 'POST', url: '/webhooks/delivery', headers: { authorization: `Bearer ${a.apiKey}` } });
    expect(first.statusCode).toBe(200);
    const secret = first.json().secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{44}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(33);

    const config = (await call(t.app, a.apiKey, 'GET', '/webhooks')).body;
    expect(config).toEqual({
      delivery_receipt: expect.objectContaining({ url: 'https://hooks.example.com/dlr', enabled: true, signing_enabled: true, disabled_reason: null, events: ['message.dlr'] }),
      inbound: expect.objectContaining({ url: 'https://hooks.example.com/in', enabled: true, signing_enabled: false, disabled_reason: null, events: ['message.inbound'] }),
    });
    expect(JSON.stringify(config)).not.toContain(secret.slice(6));

    const [row] = await rows<{ sealed: Uint8Array }>(t.services.db, sql`
      select secret_sealed as sealed from webhook_endpoints where account_id = ${a.accountId} and kind = 'delivery_receipt'`);
    const sealed = Buffer.from(row!.sealed);
    expect(sealed.toString('latin1')).not.toContain(secret);
    expect(open(t.services.secretKey, sealed)).toBe(secret);

    const inbound = await call(t.app, a.apiKey, 'POST', '/webhooks/inbound');
    const second = await call(t.app, a.apiKey, 'POST', '/webhooks/delivery');
    expect(new Set([secret, inbound.body.secret, second.body.secret]).size).toBe(3);
    // A PUT on an endpoint that has a secret never carries it.
    const put = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://hooks.example.com/dlr', enabled: true });
    expect(JSON.stringify(put.body)).not.toContain('whsec_');
    expect(put.body.delivery_receipt).toMatchObject({ signing_enabled: true });
  });
});

describe('GET /webhooks/deliveries and redeliver', () => {
  async function seed(accountId: string, n: number, event: 'message.dlr' | 'message.inbound' = 'message.dlr', messageId = ID) {
    const ids: Array<string | null> = [];
    for (let i = 0; i < n; i++) {
      const id = await t.services.db.transaction((tx) => recordEvent(tx, {
        accountId, event, messageId, body: { n: i },
      }));
      ids.push(id);
    }
    return ids;
  }

  it('records nothing while no enabled endpoint exists', async () => {
    const a = await createAccount(t.app);
    expect(await seed(a.accountId, 1)).toEqual([null]);
    await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'http://127.0.0.1:9/x', enabled: false });
    const id = await t.services.db.transaction((tx) => recordEvent(tx, {
      accountId: a.accountId, event: 'message.dlr', messageId: ID, body: {},
    }));
    expect(id).toBeNull();
  });

  it('lists newest first with filters and paging', async () => {
    const a = await createAccount(t.app);
    await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'http://127.0.0.1:9/x', enabled: true });
    await call(t.app, a.apiKey, 'PUT', '/webhooks/inbound', { url: 'http://127.0.0.1:9/y', enabled: true });
    const dlr = await seed(a.accountId, 3, 'message.dlr');
    const inbound = await seed(a.accountId, 2, 'message.inbound');

    const all = await call(t.app, a.apiKey, 'GET', '/webhooks/deliveries');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 5, limit: 25, offset: 0 });
    const list = all.body.deliveries as Array<Record<string, unknown>>;
    expect(list.map((d) => d.id)).toEqual([...dlr, ...inbound].reverse());
    expect(list[0]).toEqual({
      id: inbound[1], event: 'message.inbound', message_id: ID, status: 'pending', attempt_count: 0,
      created_at: iso, next_attempt_at: iso, completed_at: null, attempts: [],
    });

    const onlyInbound = await call(t.app, a.apiKey, 'GET', '/webhooks/deliveries?event=message.inbound');
    expect((onlyInbound.body.deliveries as unknown[]).length).toBe(2);
    expect(onlyInbound.body.total).toBe(2);
    const page = await call(t.app, a.apiKey, 'GET', '/webhooks/deliveries?limit=2&offset=1');
    expect((page.body.deliveries as Array<{ id: string }>).map((d) => d.id)).toEqual([inbound[0], dlr[2]]);
    expect((await call(t.app, a.apiKey, 'GET', '/webhooks/deliveries?status=failed')).body).toMatchObject({ deliveries: [], total: 0 });

    const b = await createAccount(t.app);
    expect((await call(t.app, b.apiKey, 'GET', '/webhooks/deliveries')).body).toMatchObject({ deliveries: [], total: 0 });
  });

  it('message_id keeps the deliveries about one message (a message\'s timeline), on the caller\'s account only', async () => {
    const OTHER = '01a1fc97-f1e8-765e-92c4-fdeb302ed872';
    const a = await createAccount(t.app);
    await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'http://127.0.0.1:9/x', enabled: true });
    const mine = await seed(a.accountId, 2, 'message.dlr', OTHER);
    await seed(a.accountId, 3);
    const res = await call(t.app, a.apiKey, 'GET', `/webhooks/deliveries?message_id=${OTHER}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect((res.body.deliveries as Array<{ id: string; message_id: string }>).map((d) => [d.id, d.message_id])).toEqual([[mine[1], OTHER], [mine[0], OTHER]]);

    const b = await createAccount(t.app);
    expect((await call(t.app, b.apiKey, 'GET', `/webhooks/deliveries?message_id=${OTHER}`)).body).toMatchObject({ deliveries: [], total: 0 });
  });

  it.each(['limit=0', 'limit=101', 'offset=-1', 'status=done', 'event=message.other', 'message_id=not-a-uuid', 'message_id=01a1fc97'])('400 for %s', async (q) => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'GET', `/webhooks/deliveries?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('redeliver is 404 for an unknown id or another account\'s delivery', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'http://127.0.0.1:9/x', enabled: true });
    const [id] = await seed(a.accountId, 1);
    expect((await call(t.app, b.apiKey, 'POST', `/webhooks/deliveries/${id}/redeliver`)).status).toBe(404);
    expect((await call(t.app, a.apiKey, 'POST', `/webhooks/deliveries/${ID}/redeliver`)).status).toBe(404);
    expect((await call(t.app, a.apiKey, 'POST', '/webhooks/deliveries/not-a-uuid/redeliver')).status).toBe(400);
  });

  it('redeliver is 409 while an attempt holds the lease', async () => {
    const a = await createAccount(t.app);
    await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'http://127.0.0.1:9/x', enabled: true });
    const [id] = await seed(a.accountId, 1);
    await t.services.db.execute(sql`update webhook_deliveries set lease_until = now() + interval '1 minute' where id = ${id}`);
    const res = await call(t.app, a.apiKey, 'POST', `/webhooks/deliveries/${id}/redeliver`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('delivery_in_progress');
  });
});
