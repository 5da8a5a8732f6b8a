// An Idempotency-Key claim is a lease with a heartbeat: a key whose process died is retaken within 15 s (it used to
// answer 409 for 60 s), while a live request, however slow, keeps its key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createIdempotency } from '../../src/platform/http/idempotency.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

describe('Idempotency-Key leases', () => {
  it('retakes a key whose holder died once its lease ran out, not 60 s later', async () => {
    const a = await createAccount(t.app);
    const key = randomUUID();
    // What a process killed mid-request leaves: a claim 16 s old with no response and a lapsed lease.
    await t.services.db.execute(sql`
      insert into idempotency_keys (account_id, key, route, request_hash, created_at, expires_at, lease_until)
      values (${a.accountId}, ${key}, 'send', 'x', now() - interval '16 seconds', now() + interval '1 day', now() - interval '1 second')`);
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'after the crash' }, { 'idempotency-key': key });
    expect(res.status).toBe(200);
  });

  it('keeps a slow live request key with its heartbeat, past the lease', async () => {
    const a = await createAccount(t.app);
    const leaseMs = 300;
    const idem = createIdempotency(t.services.db, { leaseMs });
    const key = randomUUID();
    const request = { headers: { 'idempotency-key': key }, actor: { accountId: a.accountId }, body: { n: 1 } } as unknown as FastifyRequest;
    const reply = { header: () => reply, status: () => reply } as unknown as FastifyReply;
    let finish!: () => void;
    const slow = idem.run(request, reply, 'test', () => new Promise<string>((resolve) => { finish = () => resolve('done'); }));
    // Three leases later the first request is still running: a duplicate must still see it in flight. The lease
    // running out is what is under test, so this waits for the clock.
    await new Promise((r) => setTimeout(r, 3 * leaseMs + 100));
    await expect(idem.run(request, reply, 'test', async () => 'second')).rejects.toMatchObject({ code: 'idempotency_in_flight' });
    finish();
    expect(await slow).toBe('done');
  });
});
