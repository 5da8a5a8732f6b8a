import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts';
import pg from 'pg';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compose } from '../../src/compose.ts';
import { loadConfig } from '../../src/config.ts';
import { pollUntil } from '../support/poll.ts';
import { sql } from 'drizzle-orm';
import { createScratchDatabase, testDatabaseUrl } from '../support/scratch-db.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

/** The value of one sample line of a Prometheus text page, or null when absent. */
function sample(page: string, name: string): number | null {
  const line = page.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : null;
}

describe('health, readiness and metrics (API role)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ METRICS_TOKEN: 'scrape-me' }); });
  afterAll(async () => { await t.close(); });

  it('GET /health and GET /ready answer without a key', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ ok: true });
    const ready = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ready: true, checks: { database: 'ok', migrations: 'ok', carriers: 'not_checked' }, failed: null });
  });

  it('GET /metrics needs the operator token or METRICS_TOKEN', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
    for (const token of [ADMIN_TOKEN, 'scrape-me']) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
    }
  });

  it('counts accepted messages and requests by route pattern, and reports the queues', async () => {
    const account = await createAccount(t.app, { credits: 10 });
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-me' } })).body;
    const before = sample(await scrape(), 'tasman_messages_accepted_total') ?? 0;
    expect((await call(t.app, account.apiKey, 'POST', '/send', { to: mobile(), message: 'one' })).status).toBe(200);
    const batch = await call(t.app, account.apiKey, 'POST', '/send-batch', { message: 'two', recipients: [mobile(), mobile()] });
    expect(batch.status).toBe(200);
    const read = await call(t.app, account.apiKey, 'GET', `/message/${(await call(t.app, account.apiKey, 'POST', '/send', { to: mobile(), message: 'x' })).body.message_id}`);
    expect(read.status).toBe(200);
    const page = await scrape();
    expect(sample(page, 'tasman_messages_accepted_total')).toBe(before + 4);
    expect(sample(page, 'tasman_http_requests_total{route="/send",status="200"}')).toBeGreaterThanOrEqual(2);
    expect(sample(page, 'tasman_http_requests_total{route="/message/:id",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(page).toContain('tasman_http_request_duration_seconds_bucket{le="0.1",route="/send"}');
    // No worker runs here: the messages just sent are still queued.
    expect(sample(page, 'tasman_queue_depth{queue="messages"}')).toBeGreaterThanOrEqual(4);
    expect(sample(page, 'tasman_queue_oldest_age_seconds{queue="messages"}')).toBeGreaterThanOrEqual(0);
    expect(sample(page, 'tasman_queue_depth{queue="webhooks"}')).not.toBeNull();
    for (const name of ['tasman_messages_submitted_total', 'tasman_receipts_total', 'tasman_webhook_deliveries_total', 'process_cpu_seconds_total', 'nodejs_heap_size_used_bytes']) {
      expect(page).toContain(`# TYPE ${name.replace(/_total$/, '')}`);
    }
  });
});

describe('GET /admin/health: the operator console\'s pipeline panel', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ METRICS_TOKEN: 'scrape-me' }); });
  afterAll(async () => { await t.close(); });

  it('needs the operator token or an operator session (not the metrics token), and counts what waits', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/admin/health' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/admin/health', headers: { authorization: 'Bearer scrape-me' } })).statusCode).toBe(401);
    const account = await createAccount(t.app, { credits: 10 });
    expect((await call(t.app, account.apiKey, 'GET', '/admin/health')).status).toBe(401);
    const read = async (headers: Record<string, string>, cookies?: Record<string, string>) => {
      const res = await t.app.inject({ method: 'GET', url: '/admin/health', headers, ...(cookies ? { cookies } : {}) });
      expect(res.statusCode).toBe(200);
      return res.json() as { queues: Array<{ queue: string; depth: number; oldest_seconds: number }>; carriers: unknown[]; carriers_checked: boolean };
    };
    const depth = (body: Awaited<ReturnType<typeof read>>, q: string) => body.queues.find((x) => x.queue === q)!.depth;
    const before = await read({ authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(before.queues.map((q) => q.queue)).toEqual(['messages', 'webhooks']);
    // No worker runs here: what is sent stays queued, and this process holds no carrier link.
    expect(before).toMatchObject({ carriers: [], carriers_checked: false });
    expect((await call(t.app, account.apiKey, 'POST', '/send-batch', { message: 'waits', recipients: [mobile(), mobile(), mobile()] })).status).toBe(200);
    const signIn = await t.app.inject({ method: 'POST', url: '/session/operator', payload: { token: ADMIN_TOKEN } });
    const cookie = signIn.cookies.find((c) => c.name === 'tasman_operator')!.value;
    const after = await read({}, { tasman_operator: cookie });
    // Other files add rows to this shared database (workers get scratch ones, so nothing drains it): at least this batch waits.
    expect(depth(after, 'messages')).toBeGreaterThanOrEqual(3);
    expect(after.queues.find((x) => x.queue === 'messages')!.oldest_seconds).toBeGreaterThanOrEqual(0);
  });
});

describe('readiness of the worker role', () => {
  it('is ready once bound to the SMSC, and counts submits and receipts', async () => {
    const t = await createTestApp({ SIM_DLR_DELAY_MS: '0' }, { workers: true });
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.json()).toMatchObject({ ready: true, checks: { carriers: 'ok' } });
      const pipeline = await t.app.inject({ method: 'GET', url: '/admin/health', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(pipeline.json()).toMatchObject({ carriers: [{ name: 'default', bound: true, address: expect.stringMatching(/^127\.0\.0\.1:\d+$/) }], carriers_checked: true });
      const account = await createAccount(t.app, { credits: 10 });
      const sent = await call(t.app, account.apiKey, 'POST', '/send', { to: mobile(), message: 'counted' });
      const page = await pollUntil(
        async () => (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).body,
        (p) => (sample(p, 'tasman_receipts_total{status="delivered"}') ?? 0) >= 1, `a receipt counted for ${String(sent.body.message_id)}`, 30_000);
      expect(sample(page, 'tasman_messages_submitted_total')).toBe(1);
      expect(sample(page, 'tasman_smpp_bind_up{carrier="default"}')).toBe(1);
      expect(sample(page, 'tasman_carrier_bind_up{carrier="default",bind="0"}')).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('answers 503 naming the carrier when the SMSC is unreachable', async () => {
    // A port that accepts nothing: listen, note the port, close.
    const server: Server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await new Promise((r) => server.close(r));
    const t = await createTestApp({ SMPP_HOST: '127.0.0.1', SMPP_PORT: String(port) }, { workers: true });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ ready: false, checks: { database: 'ok', carriers: 'unbound' }, failed: `no bound SMPP session to default (127.0.0.1:${port})` });
      // docs/operations.md shows this answer for an SMSC at smsc.example:2775.
      const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
      const shown = JSON.parse(/`(\{"ready":false,[^`]*\})`/.exec(doc)![1]!) as unknown;
      expect(shown).toEqual({ ...res.json(), failed: (res.json() as { failed: string }).failed.replace(`127.0.0.1:${port}`, 'smsc.example:2775') });
    } finally {
      await t.close();
    }
  });
});

describe('readiness before the first bind', () => {
  it('answers 503 from the moment the API listens until the carrier has bound once (an SMSC that never answers the bind)', async () => {
    // An SMSC that takes the connection and never answers: the first bind is neither bound nor failed for as long
    // as start-up waits for it, which is when /ready used to answer 200.
    const held = new Set<Socket>();
    const silent: Server = createServer((socket) => { held.add(socket); });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const smscPort = (silent.address() as { port: number }).port;
    const probe: Server = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const apiPort = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-test-'));
    const scratch = await createScratchDatabase();
    const config = loadConfig({
      DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: scratch.url, SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smscPort),
    });
    let started = false;
    const composing = compose(config, { roles: { api: true, workers: true }, logger: false, adminToken: ADMIN_TOKEN, listen: { port: apiPort, host: '127.0.0.1' } })
      .then((c) => { started = true; return c; });
    try {
      const first = await pollUntil(
        () => fetch(`http://127.0.0.1:${apiPort}/ready`).then(async (r) => ({ status: r.status, body: await r.json() as unknown }), () => null),
        (r) => r !== null, 'the API to listen', 30_000);
      expect(started).toBe(false);
      expect(first).toEqual({
        status: 503,
        body: { ready: false, checks: { database: 'ok', migrations: 'ok', carriers: 'unbound' }, failed: `no bound SMPP session to default (127.0.0.1:${smscPort})` },
      });
    } finally {
      silent.close();
      for (const socket of held) socket.destroy();
      await (await composing).close();
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('readiness names the failed check', () => {
  it('503 migrations pending when the database lacks this build\'s latest migration, then 503 database when it stops answering', async () => {
    const t = await createTestApp({}, { ownDatabase: true });
    const name = new URL(t.config.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    try {
      // As if this build were started on a database an older build migrated: the newest migration's row is absent.
      await t.services.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
      const pending = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(pending.statusCode).toBe(503);
      expect(pending.json()).toEqual({
        ready: false, checks: { database: 'ok', migrations: 'pending', carriers: 'not_checked' },
        failed: 'database migrations are not all applied (run tasman migrate)',
      });
      // The database goes away: its connections are cut and new ones refused.
      await admin.query(`alter database "${name}" allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      const down = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ ready: false, checks: { database: 'failed', migrations: 'unknown' }, failed: expect.stringMatching(/^the database does not answer \(/) });
      expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ ok: true });
    } finally {
      await admin.query(`alter database "${name}" allow_connections true`).catch(() => {});
      await admin.end();
      await t.close();
    }
  });
});
