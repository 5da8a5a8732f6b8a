import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { registerErrorHandling } from '../../src/platform/http/errors.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, adminAuth, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('text no field may hold', () => {
  it('refuses NUL and lone surrogates in bodies with 400 naming the field, and charges nothing', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    for (const message of ['a\u0000b', 'a\ud800b', '\udfff']) {
      const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', details: [{ field: 'message' }] });
    }
    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'Hi {{name}}', recipients: [{ phone: mobile(), merge_data: { name: 'x\u0000' } }] });
    expect(batch.status).toBe(400);
    expect(batch.body.details).toEqual([{ field: 'recipients.0.merge_data.name', message: expect.any(String) }]);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body.credits).toBe(10);
  });

  it('refuses them in query strings and on the operator API', async () => {
    const a = await createAccount(t.app);
    const query = await call(t.app, a.apiKey, 'GET', '/inbox?from=%00');
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({ code: 'validation_failed', details: [{ field: 'from' }] });
    const keyword = await call(t.app, a.apiKey, 'GET', '/report?from=2026-01-01&to=2026-01-02&keyword=a%00b');
    expect(keyword.status).toBe(400);
    const key = await admin(t.app, 'POST', `/admin/accounts/${a.accountId}/keys`, { name: 'a\u0000b' });
    expect(key.status).toBe(400);
    expect(key.body.details).toEqual([{ field: 'name', message: expect.any(String) }]);
    const created = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'X\ud800', email: 'x@example.com' });
    expect(created.status).toBe(400);
  });
});

describe('numbers beyond any range', () => {
  it('answers 400 for huge and infinite offsets and limits', async () => {
    const a = await createAccount(t.app);
    for (const url of ['/inbox?offset=99999999999999999999', '/inbox?offset=1e309', '/inbox?limit=1e309', '/numbers/available?offset=1e309',
      '/webhooks/deliveries?offset=99999999999999999999', '/inbox?offset=-1e309']) {
      const res = await call(t.app, a.apiKey, 'GET', url);
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const credits = await t.app.inject({ method: 'POST', url: `/admin/accounts/${a.accountId}/credits`, headers: { ...adminAuth, 'content-type': 'application/json' }, payload: '{"amount":1e309}' });
    expect(credits.statusCode).toBe(400);
  });
});

describe('deep nesting', () => {
  it('answers 400 for 150,000 levels with an Idempotency-Key, and for nesting inside merge data', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    for (const payload of [deep(150_000), `{"to":"${mobile()}","message":"hi","note":${deep(150_000)}}`,
      `{"message":"hi","recipients":[{"phone":"${mobile()}","merge_data":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}]}`]) {
      for (const url of ['/send', '/send-batch']) {
        const res = await t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json', 'idempotency-key': `deep-${Math.random()}` }, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('validation_failed');
      }
    }
  });
});

describe('database errors reach the error mapper', () => {
  it('maps a unique violation thrown through Drizzle to 409 and an out-of-range value to 400', async () => {
    const caught = async (query: () => Promise<unknown>) => { try { await query(); } catch (err) { return err; } throw new Error('no error'); };
    const dup = await caught(() => t.services.db.execute(sql`select * from (values (1)) v(x) where x = 1/0`));
    const unique = await caught(async () => {
      await t.services.db.execute(sql`create temp table if not exists t21 (k int primary key)`);
      await t.services.db.execute(sql`insert into t21 values (1) on conflict do nothing`);
      await t.services.db.execute(sql`insert into t21 values (1)`);
    });
    const range = await caught(() => t.services.db.execute(sql`select ${'99999999999'}::int`));
    const app = Fastify();
    registerErrorHandling(app);
    app.get('/unique', async () => { throw unique; });
    app.get('/range', async () => { throw range; });
    app.get('/other', async () => { throw dup; });
    expect((await app.inject({ url: '/unique' })).json()).toMatchObject({ code: 'conflict' });
    expect((await app.inject({ url: '/unique' })).statusCode).toBe(409);
    expect((await app.inject({ url: '/range' })).statusCode).toBe(400);
    expect((await app.inject({ url: '/other' })).statusCode).toBe(500);
    await app.close();
  });
});

describe('names and keys', () => {
  it('refuses a business_name that is blank after trimming, on every route that takes one', async () => {
    const parent = await createAccount(t.app, { hierarchy: true });
    for (const business_name of ['   ', '\t\n', '']) {
      expect((await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name, email: 'c@example.com' })).status).toBe(400);
      expect((await admin(t.app, 'POST', '/admin/accounts', { business_name, email: 'c@example.com' })).status).toBe(400);
    }
    const sub = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Sub', email: 'c@example.com' });
    const patch = await call(t.app, parent.apiKey, 'PATCH', `/account/${sub.body.account_id as string}`, { business_name: '  ' });
    expect(patch.status).toBe(400);
  });

  it('refuses __proto__ and constructor keys with 400, committing nothing', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    for (const payload of [`{"to":"${mobile()}","message":"hi","__proto__":{"x":1}}`, `{"to":"${mobile()}","message":"hi","constructor":{"prototype":{"x":1}}}`]) {
      const res = await t.app.inject({ method: 'POST', url: '/send', headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' }, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const credits = await t.app.inject({ method: 'POST', url: `/admin/accounts/${a.accountId}/credits`, headers: { ...adminAuth, 'content-type': 'application/json' }, payload: '{"amount":5,"__proto__":{"x":1}}' });
    expect(credits.statusCode).toBe(400);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body.credits).toBe(10);
  });
});
