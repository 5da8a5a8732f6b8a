// GET /status: the client libraries' status(), public and free.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';

let t: TestApp;
// No workers: nothing dispatches, so a queued message stays exactly where the test puts it. The queue age is
// service-wide, so the file has a database of its own: other files' queued messages would count too.
beforeAll(async () => { t = await createTestApp({}, { ownDatabase: true }); });
afterAll(async () => { await t?.close(); });

describe('GET /status', () => {
  it('answers without a key, operational when nothing waits, and charges nothing', async () => {
    const a = await createAccount(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'operational',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      services: { outbound: 'operational', inbound: 'operational', delivery_receipts: 'operational' },
    });
    // With a key too (the libraries send theirs): the same, and the balance is untouched.
    expect((await call(t.app, a.apiKey, 'GET', '/status')).status).toBe(200);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 5 });
  });

  it('outbound is degraded when the oldest due message has waited past the threshold', async () => {
    const a = await createAccount(t.app);
    // Queued and due, and nothing dispatches it: first within the threshold, then as if it had waited 10 minutes.
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'stuck' });
    const id = sent.body.message_id as string;
    try {
      expect((await t.app.inject({ method: 'GET', url: '/status' })).json().services.outbound).toBe('operational');
      await t.services.db.execute(sql`update messages set next_attempt_at = now() - interval '10 minutes' where id = ${id}`);
      const res = (await t.app.inject({ method: 'GET', url: '/status' })).json();
      expect(res.status).toBe('degraded');
      expect(res.services).toEqual({ outbound: 'degraded', inbound: 'operational', delivery_receipts: 'operational' });
    } finally {
      await t.services.db.execute(sql`update messages set status = 'failed' where id = ${id}`);
    }
  });
});

describe('GET /status with the workers running', () => {
  it('reports the real link: operational once bound, every service degraded once the SMSC is gone', async () => {
    const w = await createTestApp({ SIM_PORT: '0' }, { workers: true });
    try {
      expect(w.services.carriers?.health().bound).toBe(true);
      expect((await w.app.inject({ method: 'GET', url: '/status' })).json().status).toBe('operational');
      await w.simulator!.stop();
      // The link notices the closed socket on its own; wait for it rather than for a fixed time.
      await pollUntil(() => w.services.carriers!.health().bound, (bound) => !bound, 'the link unbound', 30_000, 20);
      const res = (await w.app.inject({ method: 'GET', url: '/status' })).json();
      expect(res).toMatchObject({ status: 'degraded', services: { outbound: 'degraded', inbound: 'degraded', delivery_receipts: 'degraded' } });
    } finally {
      await w.close();
    }
  });
});
