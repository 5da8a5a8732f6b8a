// The delivery worker against real HTTP receivers on loopback, with a fast schedule (WEBHOOK_RETRY_DELAYS
// 0.05,0.1 seconds) and a short timeout. Every signature is checked with an independent implementation.
import { verify } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile, type TestAccount } from '../support/factories.ts';
import { startReceiver, useReceivers } from '../support/webhook-receiver.ts';
import { clientVerify, expectVerifiedEveryWay, standardVerifies } from '../support/webhook-verify.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordEvent, type WebhookEvent } from '../../src/modules/webhooks/outbox.ts';
import { startWebhookWorker } from '../../src/modules/webhooks/webhooks.jobs.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { uuidv7 } from '../../src/platform/ids.ts';
import { pollUntil } from '../support/poll.ts';

// Short enough to test timeouts quickly, long enough that a loaded test machine does not time out a fast receiver.
const TIMEOUT_MS = 2000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    SIM_PORT: '0', SIM_DLR_DELAY_MS: '20', WEBHOOK_RETRY_DELAYS: '0.05,0.1', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_ALLOW_PRIVATE: 'true',
  }, { workers: true });
});
afterAll(async () => { await t?.close(); });

const receiver = useReceivers();

type Json = Record<string, unknown>;
type Delivery = { id: string; status: string; attempt_count: number; attempts: Array<{ status_code: number | null; error: string | null; duration_ms: number; attempted_at: string }> };

const MESSAGE_ID = '01a1fc97-f1e8-765e-92c4-fdeb302ed871';

async function configure(a: TestAccount, url: string, opts: { kind?: 'delivery' | 'inbound'; sign?: boolean; enabled?: boolean } = {}) {
  const path = `/webhooks/${opts.kind ?? 'delivery'}`;
  const put = await call(t.app, a.apiKey, 'PUT', path, { url, enabled: opts.enabled ?? true });
  expect(put.status).toBe(200);
  if (opts.sign === false) return null;
  const rotated = await call(t.app, a.apiKey, 'POST', path);
  expect(rotated.status).toBe(200);
  return rotated.body.secret as string;
}

/** Records an event as the receipt and inbound services do, then wakes the worker after the commit. */
async function emit(a: TestAccount, body: unknown, event: WebhookEvent = 'message.dlr') {
  const id = await t.services.db.transaction((tx) => recordEvent(tx, { accountId: a.accountId, event, messageId: MESSAGE_ID, body }));
  t.services.signals.webhooks.raise();
  return id;
}

async function delivery(a: TestAccount, id: string): Promise<Delivery> {
  const res = await call(t.app, a.apiKey, 'GET', '/webhooks/deliveries?limit=100');
  const found = (res.body.deliveries as Delivery[]).find((d) => d.id === id);
  if (!found) throw new Error(`delivery ${id} not listed`);
  return found;
}

const settled = (a: TestAccount, id: string, timeoutMs = 30_000): Promise<Delivery> =>
  pollUntil(() => delivery(a, id), (d) => d.status !== 'pending', `delivery ${id} settled`, timeoutMs, 25);

/**
 * A later delivery (another account's, to an endpoint that always fails) runs its whole retry schedule: an attempt
 * or change the worker still owed for an earlier one would have come by the time this one has failed.
 */
async function workerPastRetries() {
  const r = await receiver(() => ({ status: 503 }));
  const b = await createAccount(t.app);
  await configure(b, r.url, { sign: false });
  const id = await emit(b, { control: true });
  expect(await settled(b, id!)).toMatchObject({ status: 'failed', attempt_count: 3 });
}

describe('delivery', () => {
  it('POSTs the exact body with the documented headers, signed', async () => {
    const r = await receiver();
    const a = await createAccount(t.app);
    const secret = (await configure(a, `${r.url}/hooks/dlr?token=abc`))!;
    const body = { message: { id: MESSAGE_ID, body: 'Kia ora — café 👋 "quoted" \u2028' }, delivery_receipt: { status: 'delivered' } };
    const id = await emit(a, body);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const [req] = await r.waitFor(1);
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/hooks/dlr?token=abc');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['x-service-event']).toBe('message.dlr');
    expect(req!.headers['x-service-delivery']).toBe(id);
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.rawBody.equals(Buffer.from(JSON.stringify(body), 'utf8'))).toBe(true);
    expect(JSON.parse(req!.body)).toEqual(body);
    const signature = req!.headers['x-service-signature'] as string;
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    await expectVerifiedEveryWay(req!, secret);

    const d = await settled(a, id!);
    expect(d).toMatchObject({ status: 'delivered', attempt_count: 1 });
    expect(d.attempts).toEqual([{ attempted_at: expect.stringMatching(/Z$/), status_code: 200, error: null, duration_ms: expect.any(Number) }]);
  });

  it('sends no signature header from an endpoint saved before secrets came with PUT, until its first rotation', async () => {
    const r = await receiver();
    const a = await createAccount(t.app);
    await configure(a, r.url, { kind: 'inbound', sign: false });
    await t.services.db.execute(sql`update webhook_endpoints set secret_sealed = null where account_id = ${a.accountId}`);
    const id = await emit(a, { event: 'message.inbound' }, 'message.inbound');
    const [req] = await r.waitFor(1);
    expect(req!.headers['x-service-event']).toBe('message.inbound');
    expect(req!.headers['x-service-delivery']).toBe(id);
    expect(req!.headers['x-service-signature']).toBeUndefined();
    expect(req!.headers['x-texto-signature']).toBeUndefined();
    expect(req!.headers['webhook-signature']).toBeUndefined();
    expect(req!.headers['webhook-id']).toBe(id);
  });

  it('fail, fail, succeed: three attempts on the schedule, one delivery id, identical signed bytes', async () => {
    const codes = [500, 404, 204];
    let n = 0;
    const r = await receiver(() => ({ status: codes[n++] ?? 200 }));
    const a = await createAccount(t.app);
    const secret = (await configure(a, r.url))!;
    const id = await emit(a, { n: 'retry' });
    const reqs = await r.waitFor(3);
    expect(new Set(reqs.map((q) => q.headers['x-service-delivery']))).toEqual(new Set([id]));
    for (const q of reqs) {
      expect(q.rawBody.equals(reqs[0]!.rawBody)).toBe(true);
      await expectVerifiedEveryWay(q, secret);
    }
    // Waits follow WEBHOOK_RETRY_DELAYS (0.05 s then 0.1 s, ±10 % jitter): lower bounds only.
    const [r1, r2, r3] = reqs.map((q) => q.receivedAt.getTime());
    expect(r2! - r1!).toBeGreaterThanOrEqual(40);
    expect(r3! - r2!).toBeGreaterThanOrEqual(85);

    const d = await settled(a, id!);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((x) => [x.status_code, x.error])).toEqual([[500, null], [404, null], [204, null]]);
    await workerPastRetries();
    expect(r.requests).toHaveLength(3);
  });

  it('three failures: failed, and no fourth attempt', async () => {
    const r = await receiver(() => ({ status: 503 }));
    const a = await createAccount(t.app);
    await configure(a, r.url);
    const id = await emit(a, { n: 'doomed' });
    await r.waitFor(3);
    const d = await settled(a, id!);
    expect(d).toMatchObject({ status: 'failed', attempt_count: 3 });
    expect(d.attempts.map((x) => x.status_code)).toEqual([503, 503, 503]);
    await workerPastRetries();
    expect(r.requests).toHaveLength(3);
    expect((await call(t.app, a.apiKey, 'GET', '/webhooks/deliveries?status=failed')).body.total).toBe(1);
  });

  it('a receiver slower than WEBHOOK_TIMEOUT_MS fails each attempt with "timeout"', async () => {
    const r = await receiver(() => ({ status: 200, delayMs: TIMEOUT_MS * 4 }));
    const a = await createAccount(t.app);
    await configure(a, r.url);
    const id = await emit(a, { n: 'slow' });
    const d = await settled(a, id!, 15_000);
    expect(d.status).toBe('failed');
    expect(d.attempts.map((x) => [x.status_code, x.error])).toEqual([[null, 'timeout'], [null, 'timeout'], [null, 'timeout']]);
    for (const x of d.attempts) expect(x.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  });

  it('a connection refused is a failed attempt', async () => {
    const gone = await startReceiver();
    const url = gone.url;
    await gone.close();
    const a = await createAccount(t.app);
    await configure(a, url);
    const d = await settled(a, (await emit(a, {}))!);
    expect(d.status).toBe('failed');
    expect(d.attempts.map((x) => x.error)).toEqual(['connection refused', 'connection refused', 'connection refused']);
  });

  it('does not follow redirects: 3xx is a failure and the target sees nothing', async () => {
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, headers: { location: `${target.url}/elsewhere` } }));
    const a = await createAccount(t.app);
    await configure(a, r.url);
    const d = await settled(a, (await emit(a, {}))!);
    expect(d.status).toBe('failed');
    expect(d.attempts.map((x) => [x.status_code, x.error])).toEqual(Array(3).fill([302, 'redirect not followed']));
    expect(target.requests).toHaveLength(0);
  });

  it('rotation: X-…-Signature switches at once; webhook-signature carries both secrets for 24 hours', async () => {
    const r = await receiver();
    const a = await createAccount(t.app);
    const oldSecret = (await configure(a, r.url))!;
    await emit(a, { n: 1 });
    const [first] = await r.waitFor(1);
    await expectVerifiedEveryWay(first!, oldSecret);

    const newSecret = (await call(t.app, a.apiKey, 'POST', '/webhooks/delivery')).body.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    await emit(a, { n: 2 });
    const [, second] = await r.waitFor(2);
    await expectVerifiedEveryWay(second!, newSecret);
    const sig = second!.headers['x-service-signature'] as string;
    expect(await verify(oldSecret, second!.body, sig)).toBe(false);
    expect(clientVerify(oldSecret, second!.rawBody, second!.headers['x-texto-signature'])).toBe(false);
    // No gap: a receiver still holding the old secret accepts the Standard Webhooks signature.
    expect((second!.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(standardVerifies(second!, oldSecret)).toBe(true);

    // 24 hours later (the overlap's end, moved into the past) only the new secret signs.
    await t.services.db.execute(sql`
      update webhook_endpoints set previous_secret_until = now() - interval '1 second' where account_id = ${a.accountId}`);
    await emit(a, { n: 3 });
    const [, , third] = await r.waitFor(3);
    await expectVerifiedEveryWay(third!, newSecret);
    expect((third!.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(standardVerifies(third!, oldSecret)).toBe(false);
  });

  it('the secret from the creating PUT signs every header; the header prefixes carry the same values', async () => {
    const r = await receiver();
    const a = await createAccount(t.app);
    const put = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: r.url, enabled: true });
    const secret = (put.body.delivery_receipt as { secret: string }).secret;
    const id = await emit(a, { n: 'put' });
    const [req] = await r.waitFor(1);
    await expectVerifiedEveryWay(req!, secret);
    expect(req!.headers['x-texto-event']).toBe('message.dlr');
    expect(req!.headers['x-texto-delivery']).toBe(id);
    expect(Math.abs(Number(req!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('uses the separate inbound secret for message.inbound', async () => {
    const r = await receiver();
    const a = await createAccount(t.app);
    const dlrSecret = (await configure(a, `${r.url}/dlr`))!;
    const inboundSecret = (await configure(a, `${r.url}/in`, { kind: 'inbound' }))!;
    await emit(a, { event: 'message.inbound' }, 'message.inbound');
    const [req] = await r.waitFor(1);
    expect(req!.path).toBe('/in');
    const sig = req!.headers['x-service-signature'] as string;
    await expectVerifiedEveryWay(req!, inboundSecret);
    expect(await verify(dlrSecret, req!.body, sig)).toBe(false);
    expect(standardVerifies(req!, dlrSecret)).toBe(false);
  });

  it('a disabled endpoint sends nothing: no event is recorded, and one disabled before sending fails unsent', async () => {
    const r = await receiver();
    const a = await createAccount(t.app);
    await configure(a, r.url, { enabled: false });
    expect(await emit(a, { n: 'off' })).toBeNull();

    await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: r.url, enabled: true });
    // Recorded while enabled, switched off before the worker can see it (same transaction).
    const id = await t.services.db.transaction(async (tx) => {
      const recorded = await recordEvent(tx, { accountId: a.accountId, event: 'message.dlr', messageId: MESSAGE_ID, body: {} });
      await tx.execute(sql`update webhook_endpoints set enabled = false where account_id = ${a.accountId}`);
      return recorded;
    });
    t.services.signals.webhooks.raise();
    const d = await settled(a, id!);
    expect(d.status).toBe('failed');
    expect(d.attempts).toEqual([expect.objectContaining({ status_code: null, error: 'endpoint disabled; not sent', duration_ms: 0 })]);
    await workerPastRetries();
    expect(r.requests).toHaveLength(0);
  });

  it('redeliver sends the same delivery again with a fresh schedule', async () => {
    let fail = true;
    const r = await receiver(() => ({ status: fail ? 500 : 200 }));
    const a = await createAccount(t.app);
    const secret = (await configure(a, r.url))!;
    const id = (await emit(a, { n: 'again' }))!;
    expect((await settled(a, id)).status).toBe('failed');
    fail = false;

    const res = await call(t.app, a.apiKey, 'POST', `/webhooks/deliveries/${id}/redeliver`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, delivery: { id, status: 'pending', attempt_count: 0, completed_at: null } });
    const reqs = await r.waitFor(4);
    expect(reqs[3]!.headers['x-service-delivery']).toBe(id);
    expect(reqs[3]!.rawBody.equals(reqs[0]!.rawBody)).toBe(true);
    expect(await verify(secret, reqs[3]!.body, reqs[3]!.headers['x-service-signature'] as string)).toBe(true);
    const d = await settled(a, id);
    expect(d).toMatchObject({ status: 'delivered', attempt_count: 1 });
    expect(d.attempts.map((x) => x.status_code)).toEqual([500, 500, 500, 200]);

    // A delivered one can be sent again too.
    await call(t.app, a.apiKey, 'POST', `/webhooks/deliveries/${id}/redeliver`);
    await r.waitFor(5);
    expect((await settled(a, id)).attempts).toHaveLength(5);
  });

  it('a slow endpoint holds at most its share of the pool; another account is served meanwhile', async () => {
    // A receiver that answers nothing until released, and counts requests open at once (closed = answered or
    // abandoned). Holding them, rather than answering after a delay, makes "meanwhile" exact on a loaded machine.
    let open = 0;
    let maxOpen = 0;
    let received = 0;
    let release!: () => void;
    const released = new Promise<void>((r) => { release = r; });
    const slow = createServer((req, res) => {
      received += 1;
      open += 1;
      maxOpen = Math.max(maxOpen, open);
      let counted = true;
      const done = () => { if (counted) { counted = false; open -= 1; } };
      res.on('finish', done);
      res.on('close', done);
      req.resume();
      void released.then(() => res.end('ok'));
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const fast = await receiver();
      const a = await createAccount(t.app);
      const b = await createAccount(t.app);
      await configure(a, `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, { sign: false });
      await configure(b, fast.url, { sign: false });
      const slowIds: string[] = [];
      for (let i = 0; i < 40; i++) slowIds.push((await emit(a, { i }))!);
      for (let i = 0; i < 5; i++) await emit(b, { i });
      // The fast account is served while every slow request is still held: the slow endpoint holds at most its
      // share (16) of the pool and the rest of its backlog waits. Counted as requests open at once, not received:
      // on a loaded machine a held request can outlast WEBHOOK_TIMEOUT_MS, and the worker then rightly sends the
      // next ones in the freed slots (the full suite saw 19 and 31 received here, never more than 16 open).
      await fast.waitFor(5);
      expect(maxOpen).toBeLessThanOrEqual(16);
      expect(received).toBeGreaterThan(0);
      release();
      for (const id of slowIds) {
        const d = await settled(a, id, 20_000);
        // Delivered, unless every one of its three attempts was held past the timeout before the release.
        if (d.status !== 'delivered') expect(d).toMatchObject({ status: 'failed', attempts: d.attempts.map(() => expect.objectContaining({ error: 'timeout' })) });
      }
      // 16 per endpoint: the slow receiver never saw more at once, and did see that many (the bound, reached).
      expect(maxOpen).toBe(16);
    } finally {
      release();
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });
});

describe('auto-disable', () => {
  /** Finished deliveries in the log, as if they had happened: created `hoursAgo` and finished then. */
  async function history(a: TestAccount, n: number, opts: { status: 'failed' | 'delivered'; hoursAgo: number }) {
    for (let i = 0; i < n; i++) {
      await t.services.db.execute(sql`
        insert into webhook_deliveries (id, account_id, event, message_id, body, status, attempts, created_at, completed_at)
        values (${uuidv7()}, ${a.accountId}, 'message.dlr', ${MESSAGE_ID}, '{}', ${opts.status}, 3,
                now() - ${opts.hoursAgo} * interval '1 hour', now() - ${opts.hoursAgo} * interval '1 hour' + ${i} * interval '1 second')`);
    }
  }

  it('an endpoint whose last 50 deliveries over at least 24 hours all failed is disabled with a reason; PUT enables it', async () => {
    const r = await receiver(() => ({ status: 500 }));
    const a = await createAccount(t.app);
    expect((await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: r.url, enabled: true })).status).toBe(200);
    await history(a, 49, { status: 'failed', hoursAgo: 25 });
    const id = await emit(a, { n: 50 });
    expect((await settled(a, id!)).status).toBe('failed');
    const config = await pollUntil(async () => (await call(t.app, a.apiKey, 'GET', '/webhooks')).body,
      (c) => !(c.delivery_receipt as Json).enabled, 'the endpoint disabled', 30_000, 20);
    expect(config.delivery_receipt).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining('50 deliveries') });
    // Disabled: nothing more is recorded.
    expect(await emit(a, { n: 51 })).toBeNull();
    // PUT without `enabled` turns it back on and clears the reason.
    const again = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: r.url });
    expect(again.body.delivery_receipt).toMatchObject({ enabled: true, disabled_reason: null });
    expect(again.body.delivery_receipt).not.toHaveProperty('secret');
  });

  it('is not disabled by 50 failures within a shorter span, or when one of the last 50 succeeded', async () => {
    const r = await receiver(() => ({ status: 500 }));
    for (const seed of [
      async (a: TestAccount) => history(a, 49, { status: 'failed', hoursAgo: 1 }),
      async (a: TestAccount) => {
        await history(a, 1, { status: 'delivered', hoursAgo: 30 });
        await history(a, 48, { status: 'failed', hoursAgo: 26 });
      },
    ]) {
      const a = await createAccount(t.app);
      await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: r.url, enabled: true });
      await seed(a);
      const id = await emit(a, { last: true });
      expect((await settled(a, id!)).status).toBe('failed');
      await workerPastRetries();
      expect((await call(t.app, a.apiKey, 'GET', '/webhooks')).body.delivery_receipt).toMatchObject({ enabled: true, disabled_reason: null });
    }
  });
});

describe('sharing the queue', () => {
  it('two workers on one database: every event attempted, no delivery ever attempted by both at once', async () => {
    const r = await receiver();
    const a = await createAccount(t.app);
    await configure(a, r.url);
    // A second worker beside the app's own, as another process would run it.
    const stop = await startWebhookWorker({
      db: t.services.db, signal: t.services.signals.webhooks, secretKey: t.services.secretKey,
      webhook: t.config.webhook, logger: createLogger('silent'),
    });
    try {
      const ids = await Promise.all(Array.from({ length: 150 }, (_, i) => emit(a, { i })));
      await r.waitFor(150, 20_000);
      let list: Delivery[] = [];
      await pollUntil(async () => (await call(t.app, a.apiKey, 'GET', '/webhooks/deliveries?limit=100&status=pending')).body.total, (n) => n === 0, 'no delivery pending', 30_000);
      for (const offset of [0, 100]) {
        list = list.concat((await call(t.app, a.apiKey, 'GET', `/webhooks/deliveries?limit=100&offset=${offset}`)).body.deliveries as Delivery[]);
      }
      expect(new Set(list.map((d) => d.id))).toEqual(new Set(ids));
      expect(new Set(r.requests.map((q) => q.headers['x-service-delivery']))).toEqual(new Set(ids));
      // Exclusive claiming: no delivery ever had two attempts in flight at once, and every attempt is counted.
      // (On a loaded machine an attempt can time out and be retried; that is not a second claim.)
      expect(r.requests.length).toBeLessThanOrEqual(list.reduce((n, d) => n + d.attempts.length, 0));
      for (const d of list) {
        expect(d.status).not.toBe('pending');
        expect(d.attempt_count).toBe(d.attempts.length);
        for (let i = 1; i < d.attempts.length; i++) {
          const prev = d.attempts[i - 1]!;
          expect(Date.parse(d.attempts[i]!.attempted_at)).toBeGreaterThanOrEqual(Date.parse(prev.attempted_at) + prev.duration_ms - 5);
        }
      }
    } finally {
      await stop();
    }
  });
});

describe('end to end through the built-in SMSC', () => {
  const SHARED_AU = '+61480000000';

  it('send → receipt → message.dlr whose body is GET /message/{id}', async () => {
    const r = await receiver();
    const a = await createAccount(t.app);
    const secret = (await configure(a, r.url))!;
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'Your table is ready' });
    expect(sent.status).toBe(200);
    const [req] = await r.waitFor(1, 15_000);
    expect(req!.headers['x-service-event']).toBe('message.dlr');
    await expectVerifiedEveryWay(req!, secret);
    const got = await call(t.app, a.apiKey, 'GET', `/message/${String(sent.body.message_id)}`);
    // The body is GET /message/{id}, field for field.
    expect(JSON.parse(req!.body)).toEqual(got.body);
    expect(got.body).toMatchObject({ message: { status: 'delivered' }, delivery_receipt: { status: 'delivered' }, links: [] });
    const d = await settled(a, req!.headers['x-service-delivery'] as string);
    expect(d.status).toBe('delivered');
  });

  it('every kind of message ends with a message.dlr body shaped exactly as GET /message/{id}', async () => {
    const r = await receiver();
    const a = await createAccount(t.app, { credits: 20 });
    await configure(a, r.url);
    const n = () => String(Math.floor(Math.random() * 1000)).padStart(3, '0');
    const kinds: Record<string, Record<string, unknown>> = {
      delivered: { to: mobile(), message: 'Plain' },
      undelivered: { to: `+61412${n()}999`, message: 'Undelivered' },
      rejected: { to: `+61413${n()}996`, message: 'Refused at submit' },
      links: { to: mobile(), message: 'Book at https://book.example/slot and https://map.example/x', link_tracking: true },
      metadata: { to: mobile(), message: 'Tagged', metadata: { order: 'A-17' }, campaign: 'Shapes' },
      long: { to: mobile(), message: 'ā'.repeat(200) },
    };
    const ids: Record<string, string> = {};
    for (const [kind, body] of Object.entries(kinds)) {
      const sent = await call(t.app, a.apiKey, 'POST', '/send', body);
      expect(sent.status, kind).toBe(200);
      ids[kind] = sent.body.message_id as string;
    }
    const reqs = await r.waitFor(Object.keys(kinds).length, 30_000);
    const shape = (v: unknown): unknown => (Array.isArray(v) ? v.map(shape)
      : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)])) : v === null ? null : typeof v);
    for (const [kind, id] of Object.entries(ids)) {
      const req = reqs.find((q) => (JSON.parse(q.body) as { message: { id: string } }).message.id === id);
      expect(req, kind).toBeDefined();
      const got = await call(t.app, a.apiKey, 'GET', `/message/${id}`);
      // No click happened, so the bodies are equal; the shapes are compared too, to name a drifting field.
      expect(shape(JSON.parse(req!.body)), kind).toEqual(shape(got.body));
      expect(JSON.parse(req!.body), kind).toEqual(got.body);
    }
    const withLinks = JSON.parse(reqs.find((q) => q.body.includes(ids.links!))!.body) as { links: Array<{ url: string; clicks: number }> };
    expect(withLinks.links.map((l) => [l.url, l.clicks])).toEqual([['https://book.example/slot', 0], ['https://map.example/x', 0]]);
  });

  it('a message the SMSC refuses at submit ends with message.dlr: delivery_receipt rejected, with the error code', async () => {
    const r = await receiver();
    const a = await createAccount(t.app);
    const secret = (await configure(a, r.url))!;
    const refused = `+61412${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}996`;
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: refused, message: 'Never leaves' });
    expect(sent.status).toBe(200);
    const [req] = await r.waitFor(1, 15_000);
    await expectVerifiedEveryWay(req!, secret);
    const got = await call(t.app, a.apiKey, 'GET', `/message/${String(sent.body.message_id)}`);
    expect(JSON.parse(req!.body)).toEqual(got.body);
    expect(got.body).toMatchObject({
      message: { status: 'failed', sent_at: null },
      delivery_receipt: { status: 'rejected', received_at: expect.stringMatching(/Z$/), error_code: expect.stringMatching(/.+/) },
    });
  });

  it('an injected reply → message.inbound; STOP → is_optout, already on /optouts when it arrives', async () => {
    const a = await createAccount(t.app);
    let optoutsSeen: unknown = null;
    const r = await receiver(async (req) => {
      if ((JSON.parse(req.body) as Json).is_optout) optoutsSeen = (await call(t.app, a.apiKey, 'GET', '/optouts')).body;
      return { status: 200 };
    });
    const secret = (await configure(a, r.url, { kind: 'inbound' }))!;
    const customer = mobile();
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: customer, message: 'Reply YES to confirm' });
    expect(sent.status).toBe(200);
    // Wait until the message is sent, so the reply is routed to this account.
    await pollUntil(async () => (await call(t.app, a.apiKey, 'GET', `/message/${String(sent.body.message_id)}`)).body,
      (m) => (m.message as Json).status !== 'queued', 'the message sent', 30_000, 25);

    expect((await admin(t.app, 'POST', '/admin/simulator/inbound', { from: customer, to: SHARED_AU, text: 'Yes please' })).status).toBe(200);
    const [reply] = await r.waitFor(1, 15_000);
    expect(reply!.headers['x-service-event']).toBe('message.inbound');
    await expectVerifiedEveryWay(reply!, secret);
    expect(JSON.parse(reply!.body)).toEqual({
      event: 'message.inbound', message_id: expect.stringMatching(/^[0-9a-f-]{36}$/), from: customer, to: SHARED_AU,
      body: 'Yes please', received_at: expect.stringMatching(/Z$/), in_reply_to: sent.body.message_id, is_optout: false,
      is_optin: false,
    });

    expect((await admin(t.app, 'POST', '/admin/simulator/inbound', { from: customer, to: SHARED_AU, text: 'stop' })).status).toBe(200);
    const [, stop] = await r.waitFor(2, 15_000);
    expect(JSON.parse(stop!.body)).toMatchObject({ event: 'message.inbound', from: customer, body: 'stop', is_optout: true });
    await expectVerifiedEveryWay(stop!, secret);
    // The receiver read /optouts before answering; once the delivery is recorded as delivered, it has answered.
    expect((await settled(a, stop!.headers['x-service-delivery'] as string)).status).toBe('delivered');
    expect(optoutsSeen).toMatchObject({ optouts: [expect.objectContaining({ number: customer, source: 'keyword' })] });
  });
});
