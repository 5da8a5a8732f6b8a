// The dispatcher against the real database with a test carrier (a Carrier implementation that counts what it is
// asked to submit): claiming, fencing, retries, refunds, lease reclaim, shutdown, and on PostgreSQL two
// dispatchers sharing one queue. The database has no other dispatcher on it (a scratch one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Carrier, CarrierHandlers, SubmitRequest, SubmitResult } from '../../src/carrier/carrier.ts';
import { openDatabase, rows, type Database } from '../../src/platform/db/client.ts';
import { createDispatcher, type DispatcherDeps } from '../../src/modules/dispatch/dispatcher.jobs.ts';
import { claimBatch, recordSent } from '../../src/modules/dispatch/dispatch.repo.ts';
import { createReceiptService } from '../../src/modules/receipts/receipts.service.ts';
import { noLinks } from '../../src/common/link-view.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createScratchDatabase } from '../support/scratch-db.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';

let t: TestApp;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await createTestApp({ DATABASE_URL: scratch.url });
});
afterAll(async () => {
  await t.close();
  await scratch.drop();
});

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

interface TestCarrier extends Carrier {
  submitted: SubmitRequest[];
  handlers: CarrierHandlers | null;
}

/** Accepts everything (or what `decide` says) after `delayMs`, numbering the SMSC ids. */
function testCarrier(opts: {
  delayMs?: () => number;
  decide?: (req: SubmitRequest, smscId: string, carrier: TestCarrier) => Promise<SubmitResult> | SubmitResult;
  counts?: Map<string, number>;
} = {}): TestCarrier {
  let next = 1;
  const carrier: TestCarrier = {
    submitted: [],
    handlers: null,
    async start(h) { carrier.handlers = h; },
    async submit(req) {
      carrier.submitted.push(req);
      opts.counts?.set(req.id, (opts.counts.get(req.id) ?? 0) + 1);
      const smscId = `${next++}${Math.floor(Math.random() * 1e9)}`;
      const delay = opts.delayMs?.() ?? 0;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      return opts.decide ? opts.decide(req, smscId, carrier) : { ok: true, smscMessageId: smscId };
    },
    health: () => ({ connected: true, bound: true, inFlight: 0, lastError: null }),
    async stop() {},
  };
  return carrier;
}

function dispatcherFor(carrier: Carrier, extra: Partial<DispatcherDeps> = {}) {
  return createDispatcher({
    db: t.services.db, carrier, receipts: t.services.receipts, window: 20, pollMs: 30, logger: quiet, ...extra,
  });
}

const until = <T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30_000): Promise<T> =>
  pollUntil(read, done, 'the dispatcher', timeoutMs, 20);

interface Row { id: string; status: string; attempts: number; smsc_message_id: string | null; error_code: string | null; sent_at: Date | null }
const messagesOf = (db: TestApp['services']['db'], accountId: string) => rows<Row>(db, sql`
  select id, status, attempts, smsc_message_id, error_code, sent_at from messages where account_id = ${accountId} order by id`);

async function queue(count: number, credits = count) {
  const a = await createAccount(t.app, { credits });
  // Distinct: a batch sends a repeated number once, and 2,000 random numbers do collide now and then.
  const unique = new Set<string>();
  while (unique.size < count) unique.add(mobile());
  const recipients = [...unique];
  for (let i = 0; i < recipients.length; i += 1000) {
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: recipients.slice(i, i + 1000), message: 'Hi' });
    expect(res.status).toBe(200);
  }
  return a;
}

describe('dispatcher', () => {
  it('submits each queued message once and records sent with the SMSC id', async () => {
    const a = await queue(5);
    const carrier = testCarrier();
    const d = dispatcherFor(carrier);
    await d.start();
    const done = await until(() => messagesOf(t.services.db, a.accountId), (r) => r.every((m) => m.status === 'sent'));
    await d.stop();
    expect(done.map((m) => m.status)).toEqual(Array(5).fill('sent'));
    expect(carrier.submitted.map((s) => s.id).sort()).toEqual(done.map((m) => m.id).sort());
    for (const m of done) {
      const req = carrier.submitted.find((s) => s.id === m.id)!;
      expect(req).toMatchObject({ from: '+61480000000', text: 'Hi', receipt: true });
      expect(m.smsc_message_id).toEqual(expect.any(String));
      expect(m.sent_at).not.toBeNull();
      expect(m.attempts).toBe(1);
    }
  });

  it('wakes at once on the queue signal rather than waiting for the poll', async () => {
    const carrier = testCarrier();
    const d = dispatcherFor(carrier, { pollMs: 60_000, signal: t.services.signals.queued });
    await d.start();
    const a = await queue(1);
    const [m] = await until(() => messagesOf(t.services.db, a.accountId), (r) => r[0]?.status === 'sent', 10_000);
    await d.stop();
    expect(m?.status).toBe('sent');
  });

  it('retries a temporary refusal with backoff, then records sent', async () => {
    const a = await queue(1);
    let calls = 0;
    const carrier = testCarrier({
      decide: (_req, smscId) => (++calls === 1
        ? { ok: false, permanent: false, errorCode: 'ESME_RTHROTTLED', message: 'slow down' }
        : { ok: true, smscMessageId: smscId }),
    });
    const d = dispatcherFor(carrier, { retry: { baseMs: 50, maxMs: 50, maxAttempts: 5, validityMs: 60_000 } });
    await d.start();
    const [m] = await until(() => messagesOf(t.services.db, a.accountId), (r) => r[0]?.status === 'sent');
    await d.stop();
    expect(m).toMatchObject({ status: 'sent', attempts: 2, error_code: null });
    expect(carrier.submitted).toHaveLength(2);
  });

  it('gives up after the last attempt: failed and refunded', async () => {
    const a = await queue(1);
    const carrier = testCarrier({ decide: () => ({ ok: false, permanent: false, errorCode: 'ESME_RSYSERR', message: 'down' }) });
    const d = dispatcherFor(carrier, { retry: { baseMs: 20, maxMs: 20, maxAttempts: 3, validityMs: 60_000 } });
    await d.start();
    const [m] = await until(() => messagesOf(t.services.db, a.accountId), (r) => r[0]?.status === 'failed');
    await d.stop();
    expect(m).toMatchObject({ status: 'failed', attempts: 3, error_code: 'ESME_RSYSERR', sent_at: null });
    expect(carrier.submitted).toHaveLength(3);
    const ledger = await rows<{ kind: string; delta: number }>(t.services.db, sql`
      select kind, delta from credit_ledger where message_id = ${m!.id} and kind = 'refund'`);
    expect(ledger).toEqual([{ kind: 'refund', delta: 1 }]);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 1 });
  });

  it('reclaims a crashed worker\'s message once its lease runs out, and submits it once', async () => {
    const a = await queue(1);
    // The "crashed" worker: claims with a short lease and never comes back.
    const claimed = await claimBatch(t.services.db, 10, 400);
    expect(claimed.map((c) => c.accountId)).toEqual([a.accountId]);
    const carrier = testCarrier();
    const d = dispatcherFor(carrier);
    await d.start();
    const [m] = await until(() => messagesOf(t.services.db, a.accountId), (r) => r[0]?.status === 'sent');
    await d.stop();
    expect(m).toMatchObject({ status: 'sent', attempts: 2 });
    expect(carrier.submitted.map((s) => s.id)).toEqual([m!.id]);
  });

  it('does not record an outcome once its claim was taken over', async () => {
    const a = await queue(1);
    const [claim] = await claimBatch(t.services.db, 10, 50);
    // The 50 ms lease running out (by the database's clock) is what lets the takeover claim it.
    await until(() => rows<{ lapsed: boolean }>(t.services.db, sql`select lease_until < now() as lapsed from messages where id = ${claim!.id}`),
      (r) => r[0]?.lapsed === true);
    const [takeover] = await claimBatch(t.services.db, 10, 60_000);
    expect(takeover?.id).toBe(claim!.id);
    const recorded = await recordSent(t.services.db, [{ id: claim!.id, claim: claim!.claim, smscMessageId: '1', sentAt: new Date() }]);
    expect(recorded.size).toBe(0);
    const [m] = await messagesOf(t.services.db, a.accountId);
    expect(m).toMatchObject({ status: 'queued', attempts: 2, smsc_message_id: null });
    await t.services.db.execute(sql`update messages set status = 'failed', lease_until = null where id = ${m!.id}`);
  });

  it('stop() waits for submits in flight and records them', async () => {
    const a = await queue(3);
    const carrier = testCarrier({ delayMs: () => 300 });
    const d = dispatcherFor(carrier);
    await d.start();
    await until(async () => carrier.submitted.length, (n) => n === 3, 10_000);
    await d.stop();
    const done = await messagesOf(t.services.db, a.accountId);
    expect(done.map((m) => m.status)).toEqual(['sent', 'sent', 'sent']);
  });
});

describe('receipts against the dispatcher', () => {
  it('a receipt that arrives before the submit response is parked, then applied', async () => {
    const a = await queue(2);
    const carrier = testCarrier({
      decide: async (_req, smscId) => {
        await t.services.receipts.onReceipt({ smscMessageId: smscId, state: 'delivered', final: true, errorCode: '000', doneAt: new Date() });
        return { ok: true, smscMessageId: smscId };
      },
    });
    const d = dispatcherFor(carrier);
    await d.start();
    const done = await until(() => messagesOf(t.services.db, a.accountId), (r) => r.every((m) => m.status === 'delivered'));
    await d.stop();
    expect(done.map((m) => m.status)).toEqual(['delivered', 'delivered']);
    const parked = await rows(t.services.db, sql`
      select 1 from pending_receipts where smsc_message_id in (${done[0]!.smsc_message_id}, ${done[1]!.smsc_message_id})`);
    expect(parked).toHaveLength(0);
  });

  it('segment receipts that overtake the response are applied to the concatenated message', async () => {
    const a = await queue(1);
    const carrier = testCarrier({
      decide: async (_req, smscId) => {
        const ids = [`${smscId}1`, `${smscId}2`];
        for (const id of ids) await t.services.receipts.onReceipt({ smscMessageId: id, state: 'delivered', final: true, errorCode: null, doneAt: null });
        return { ok: true, smscMessageId: ids[0]!, segmentIds: ids };
      },
    });
    const d = dispatcherFor(carrier);
    await d.start();
    const [m] = await until(() => messagesOf(t.services.db, a.accountId), (r) => r[0]?.status === 'delivered');
    await d.stop();
    expect(m?.status).toBe('delivered');
  });
});

describe('two dispatchers on one queue (PostgreSQL)', () => {
  it('submit each of 2,000 messages exactly once', async () => {
    const a = await queue(2000);
    const counts = new Map<string, number>();
    const databases: Database[] = [];
    const carriers: TestCarrier[] = [];
    const dispatchers = [];
    const problems: Array<{ msg?: string; obj: object }> = [];
    const logger = { ...quiet, warn: (obj: object, msg?: string) => problems.push({ obj, msg }), error: (obj: object, msg?: string) => problems.push({ obj, msg }) };
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ databaseUrl: scratch.url, dataDir: '/nonexistent', poolSize: 5 });
      databases.push(database);
      const carrier = testCarrier({ counts, delayMs: () => Math.floor(Math.random() * 3) });
      carriers.push(carrier);
      dispatchers.push(createDispatcher({
        db: database.db, carrier, receipts: createReceiptService({ db: database.db, linksOf: noLinks }), window: 50, pollMs: 20, logger,
      }));
    }
    await Promise.all(dispatchers.map((d) => d.start()));
    const sent = await until(
      async () => (await rows<{ n: number }>(t.services.db, sql`
        select count(*)::int as n from messages where account_id = ${a.accountId} and status = 'sent'`))[0]!.n,
      (n) => n === 2000, 60_000);
    await Promise.all(dispatchers.map((d) => d.stop()));
    await Promise.all(databases.map((d) => d.close()));
    expect(problems).toEqual([]);
    expect(sent).toBe(2000);
    expect(counts.size).toBe(2000);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(carriers[0]!.submitted.length + carriers[1]!.submitted.length).toBe(2000);
    expect(carriers.every((c) => c.submitted.length > 0)).toBe(true);
  }, 120_000);
});
