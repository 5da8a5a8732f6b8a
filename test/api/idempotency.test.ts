import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

describe('Idempotency-Key', () => {
  it('replays the first response and sends nothing more', async () => {
    const a = await createAccount(t.app);
    const key = randomUUID();
    const body = { to: mobile(), message: 'once' };
    const first = await call(t.app, a.apiKey, 'POST', '/send', body, { 'idempotency-key': key });
    const again = await call(t.app, a.apiKey, 'POST', '/send', { message: body.message, to: body.to }, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body.credits).toBe(4);
  });

  it('answers 422 when the key is reused with another body', async () => {
    const a = await createAccount(t.app);
    const key = randomUUID();
    await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'one' }, { 'idempotency-key': key });
    const other = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'two' }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_mismatch');
    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [mobile()], message: 'one' }, { 'idempotency-key': key });
    expect(batch.status).toBe(422);
  });

  it('answers 409 while the first request is still in flight', async () => {
    const a = await createAccount(t.app, { credits: 1000 });
    const key = randomUUID();
    const body = { recipients: Array.from({ length: 300 }, () => mobile()), message: 'x' };
    const results = await Promise.all([0, 1, 2].map(() => call(t.app, a.apiKey, 'POST', '/send-batch', body, { 'idempotency-key': key })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const charged = 1000 - ((await call(t.app, a.apiKey, 'GET', '/balance')).body.credits as number);
    expect(charged).toBe(results.find((r) => r.status === 200 && !r.headers['idempotent-replayed'])!.body.credits_used);
  });

  it('409 for a claim in flight; a claim abandoned for over a minute is taken over', async () => {
    const { canonicalJson } = await import('../../src/platform/http/idempotency.ts');
    const { createHash } = await import('node:crypto');
    const { sql } = await import('drizzle-orm');
    const a = await createAccount(t.app);
    const body = { to: mobile(), message: 'x' };
    const hash = createHash('sha256').update(`send\n${canonicalJson(body)}`).digest('hex');
    const claim = async (key: string, age: string) => t.services.db.execute(sql`
      insert into idempotency_keys (account_id, key, route, request_hash, created_at, expires_at)
      values (${a.accountId}, ${key}, 'send', ${hash}, now() - ${age}::interval, now() + interval '1 day')`);
    const live = randomUUID();
    await claim(live, '1 second');
    const busy = await call(t.app, a.apiKey, 'POST', '/send', body, { 'idempotency-key': live });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('idempotency_in_flight');
    const dead = randomUUID();
    await claim(dead, '2 minutes');
    const retaken = await call(t.app, a.apiKey, 'POST', '/send', body, { 'idempotency-key': dead });
    expect(retaken.status).toBe(200);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body.credits).toBe(4);
  });

  it('does not keep a failed attempt: the client may retry the same key after fixing the cause', async () => {
    const a = await createAccount(t.app, { credits: 0 });
    const key = randomUUID();
    const body = { to: mobile(), message: 'x' };
    expect((await call(t.app, a.apiKey, 'POST', '/send', body, { 'idempotency-key': key })).status).toBe(402);
    const { admin } = await import('../support/factories.ts');
    await admin(t.app, 'POST', `/admin/accounts/${a.accountId}/credits`, { amount: 5 });
    const retry = await call(t.app, a.apiKey, 'POST', '/send', body, { 'idempotency-key': key });
    expect(retry.status).toBe(200);
  });

  it('keys are per account', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    const key = randomUUID();
    const x = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x' }, { 'idempotency-key': key });
    const y = await call(t.app, b.apiKey, 'POST', '/send', { to: mobile(), message: 'y' }, { 'idempotency-key': key });
    expect(x.status).toBe(200);
    expect(y.status).toBe(200);
    expect(y.body.message_id).not.toBe(x.body.message_id);
  });
});
