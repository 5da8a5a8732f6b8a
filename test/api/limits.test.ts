import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

// The per-key rate counts requests in a one-second window.
const RATE_WINDOW_MS = 1_000;

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ RATE_LIMIT_RPS: '5', RATE_LIMIT_CONCURRENCY: '2' }); });
afterAll(async () => { await t.close(); });

describe('per-key limits', () => {
  it('answers 429 past the rate with Retry-After and RateLimit headers', async () => {
    const a = await createAccount(t.app);
    const results = [];
    for (let i = 0; i < 6; i += 1) results.push(await call(t.app, a.apiKey, 'GET', '/balance'));
    expect(results.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results[0]!.headers['ratelimit-limit']).toBe('5');
    expect(results[0]!.headers['ratelimit-remaining']).toBe('4');
    const limited = results[5]!;
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', error: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['ratelimit-reset']).toBeDefined();
  });

  it('limits each key separately', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    for (let i = 0; i < 5; i += 1) await call(t.app, a.apiKey, 'GET', '/balance');
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).status).toBe(429);
    expect((await call(t.app, b.apiKey, 'GET', '/balance')).status).toBe(200);
  });

  it('refuses a third concurrent request and frees the slots when responses end', async () => {
    const a = await createAccount(t.app, { credits: 5000 });
    const batch = () => call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x', recipients: Array.from({ length: 1000 }, () => mobile()) });
    const results = await Promise.all([batch(), batch(), batch()]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429]);
    expect(results.find((r) => r.status === 429)!.body.code).toBe('concurrency_limited');
    // The rate window has to pass (the batches spent it); the slots are what is under test.
    await new Promise((resolve) => setTimeout(resolve, RATE_WINDOW_MS + 100));
    const after = await Promise.all([call(t.app, a.apiKey, 'GET', '/balance'), call(t.app, a.apiKey, 'GET', '/balance')]);
    expect(after.map((r) => r.status)).toEqual([200, 200]);
  });

  it('does not count 401s against anyone', async () => {
    for (let i = 0; i < 10; i += 1) {
      const res = await t.app.inject({ method: 'GET', url: '/balance', headers: { authorization: 'Bearer nope' } });
      expect(res.statusCode).toBe(401);
    }
  });
});
