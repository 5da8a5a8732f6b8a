// Webhook delivery against a real worker process: `tasman start` with TASMAN_ROLES=workers in a child process
// (the delivery worker as deployed, signing every body), a receiver in a second child process
// (bench/webhook-receiver.ts), and the outbox seeded over SQL from this process with a NOTIFY, as a receipt
// committed by another process would be.
//  - webhooks-throughput: BENCH_DELIVERIES (20,000) pending message.dlr rows over 20 accounts (endpoints on one
//    receiver answering 200 at once), committed together; deliveries per second to the last arrival, and to the
//    last outcome recorded in the database.
//  - webhooks-latency: rows committed at BENCH_RATE (500) per second for BENCH_SECONDS (10); delay from the
//    row's created_at (its commit) to its arrival at the receiver.
//  - webhooks-isolation / webhooks-isolation-same-origin: 1,000 rows queued first for an endpoint answering after
//    10 s (on its own origin / on the fast receiver's origin), then 200/s for 15 s to one fast endpoint: the fast
//    one's delay. WEBHOOK_TIMEOUT_MS=15000, so the slow endpoint answers rather than times out.
// Usage: DATABASE_URL=postgres://…/a_database npx tsx bench/webhooks.ts   (PostgreSQL only: the worker and the
// seeding run in different processes, which the embedded PGlite does not allow). BENCH_CPU_PROF=<dir> profiles
// the worker process.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { seal } from '../src/platform/crypto/secret-box.ts';
import { uuidv7 } from '../src/platform/ids.ts';
import { startTasmanProcess } from './tasman-process.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench/webhooks.ts needs PostgreSQL (DATABASE_URL): it seeds the outbox from this process while the worker runs in another\n');
  process.exit(2);
}
const TOTAL = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ACCOUNTS = 20;
const SLOW_BACKLOG = 1_000;
const ISOLATION_RATE = 200;
const ISOLATION_SECONDS = 15;
const print = (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ db: 'postgres', ...figure })}\n`);
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(1));
};

const receiver = fork(path.join(import.meta.dirname, 'webhook-receiver.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [{ ports }] = await once(receiver, 'message') as [{ ports: { fast: number; slow: number } }];
const arrived = new Map<string, number>();
async function collect(): Promise<void> {
  receiver.send({ cmd: 'take' });
  const [{ arrivals }] = await once(receiver, 'message') as [{ arrivals: Array<[string, number]> }];
  for (const [id, at] of arrivals) if (!arrived.has(id)) arrived.set(id, at);
}
async function waitArrived(ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await collect();
    const missing = ids.filter((id) => !arrived.has(id)).length;
    if (missing === 0) return;
    if (Date.now() > deadline) throw new Error(`${missing} of ${ids.length} webhooks did not arrive within ${timeoutMs} ms`);
    await sleep(20);
  }
}

const key = randomBytes(32);
const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-bench-webhooks-'));
const proc = await startTasmanProcess({
  DATA_DIR: dataDir, TASMAN_ROLES: 'workers', DATABASE_URL: databaseUrl, TASMAN_SECRET_KEY: key.toString('hex'),
  WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '15000',
});
const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });

const body = (messageId: string) => JSON.stringify({
  message: {
    id: messageId, recipient: '+61412345678', sender: '+61480000000', body: 'Your order has shipped', status: 'delivered',
    parts: 1, campaign_id: null, created_at: new Date().toISOString(), sent_at: new Date().toISOString(),
  },
  delivery_receipt: { status: 'delivered', received_at: new Date().toISOString(), error_code: null },
});

async function createEndpoints(urls: Map<string, string>): Promise<void> {
  const ids = [...urls.keys()];
  await pool.query(`insert into accounts (id, business_name) select unnest($1::uuid[]), 'Webhook bench'`, [ids]);
  await pool.query(`
    insert into webhook_endpoints (account_id, kind, url, enabled, secret_sealed)
    select * from unnest($1::uuid[], $2::text[], $3::text[], $4::bool[], $5::bytea[])`,
  [ids, ids.map(() => 'delivery_receipt'), ids.map((id) => urls.get(id)!), ids.map(() => true),
    ids.map(() => seal(key, `whsec_${randomBytes(32).toString('base64url')}`))]);
}

/** Commits pending message.dlr rows (one statement, with the NOTIFY a committing receipt would raise). */
async function enqueue(client: pg.Pool | pg.PoolClient, accountIds: string[]): Promise<string[]> {
  const ids = accountIds.map(() => uuidv7());
  const messageIds = accountIds.map(() => uuidv7());
  await client.query(`
    with ins as (
      insert into webhook_deliveries (id, account_id, event, message_id, body)
      select id, account_id, 'message.dlr', message_id, body from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[]) as x(id, account_id, message_id, body)
      returning 1)
    select pg_notify('tasman_webhooks', '') from (select count(*) from ins) c`,
  [ids, accountIds, messageIds, messageIds.map(body)]);
  return ids;
}

async function createdAt(ids: string[]): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ id: string; ms: string }>(
    `select id, extract(epoch from created_at) * 1000 as ms from webhook_deliveries where id = any($1::uuid[])`, [ids]);
  return new Map(rows.map((r) => [r.id, Number(r.ms)]));
}

/** Commits `rate` rows per second for `seconds`, in a tick every 20 ms, round robin over `accounts`. */
async function trickle(accounts: string[], rate: number, seconds: number): Promise<string[]> {
  const ids: string[] = [];
  const ticks = seconds * 50;
  const started = now();
  let sent = 0;
  const inserts: Array<Promise<void>> = [];
  for (let t = 1; t <= ticks; t++) {
    const wait = started + t * 20 - now();
    if (wait > 0) await sleep(wait);
    const due = Math.round((rate * t) / 50) - sent;
    if (due <= 0) continue;
    const batch = Array.from({ length: due }, (_, i) => accounts[(sent + i) % accounts.length]!);
    sent += due;
    inserts.push(enqueue(pool, batch).then((got) => { ids.push(...got); }));
  }
  await Promise.all(inserts);
  return ids;
}

async function delays(ids: string[]): Promise<number[]> {
  const created = await createdAt(ids);
  return ids.map((id) => arrived.get(id)! - created.get(id)!);
}

try {
  const fast = Array.from({ length: ACCOUNTS }, () => uuidv7());
  const slowOwnOrigin = uuidv7();
  const slowSameOrigin = uuidv7();
  await createEndpoints(new Map([
    ...fast.map((id, i) => [id, `http://127.0.0.1:${ports.fast}/hooks/${i}`] as const),
    [slowOwnOrigin, `http://127.0.0.1:${ports.slow}/hooks/slow`],
    [slowSameOrigin, `http://127.0.0.1:${ports.fast}/slow/hooks`],
  ]));

  // Throughput: everything committed at once.
  const client = await pool.connect();
  let ids: string[];
  try {
    await client.query('begin');
    ids = [];
    for (let i = 0; i < TOTAL; i += 5_000) {
      ids.push(...await enqueue(client, Array.from({ length: Math.min(5_000, TOTAL - i) }, (_, j) => fast[(i + j) % ACCOUNTS]!)));
    }
    await client.query('commit');
  } finally {
    client.release();
  }
  const committed = now();
  await waitArrived(ids, 300_000);
  const lastArrival = Math.max(...ids.map((id) => arrived.get(id)!));
  const firstArrival = Math.min(...ids.map((id) => arrived.get(id)!));
  for (;;) {
    const { rows: [left] } = await pool.query<{ n: number }>(
      `select count(*)::int as n from webhook_deliveries where account_id = any($1::uuid[]) and status <> 'delivered'`, [fast]);
    if (left!.n === 0) break;
    await sleep(20);
  }
  const recorded = now();
  print({
    bench: 'webhooks-throughput', deliveries: TOTAL, endpoints: ACCOUNTS,
    deliveries_per_s: Math.round(TOTAL / ((lastArrival - committed) / 1000)),
    recorded_per_s: Math.round(TOTAL / ((recorded - committed) / 1000)),
    first_arrival_ms: Number((firstArrival - committed).toFixed(1)),
  });

  // Latency at a steady rate below capacity.
  const steady = await trickle(fast, RATE, SECONDS);
  await waitArrived(steady, 60_000);
  const steadyDelays = await delays(steady);
  print({
    bench: 'webhooks-latency', deliveries: steady.length, rate_per_s: RATE,
    p50_ms: pct(steadyDelays, 0.5), p99_ms: pct(steadyDelays, 0.99), max_ms: pct(steadyDelays, 1),
  });

  // Isolation: a slow endpoint with a backlog queued ahead, then a fast endpoint's traffic.
  for (const [name, slow] of [['webhooks-isolation', slowOwnOrigin], ['webhooks-isolation-same-origin', slowSameOrigin]] as const) {
    const backlog = await enqueue(pool, Array.from({ length: SLOW_BACKLOG }, () => slow));
    await sleep(500);
    const startedAt = now();
    const fastIds = await trickle([fast[0]!], ISOLATION_RATE, ISOLATION_SECONDS);
    await waitArrived(fastIds, 60_000);
    const fastDelays = await delays(fastIds);
    const slowArrived = backlog.filter((id) => arrived.has(id) && arrived.get(id)! >= startedAt - 500).length;
    print({
      bench: name, fast_deliveries: fastIds.length, rate_per_s: ISOLATION_RATE, slow_backlog: SLOW_BACKLOG,
      slow_arrived_meanwhile: slowArrived,
      p50_ms: pct(fastDelays, 0.5), p99_ms: pct(fastDelays, 0.99), max_ms: pct(fastDelays, 1),
    });
    // The rest of the slow backlog would keep 16 worker slots busy for hours: take it out of the queue.
    await pool.query(`update webhook_deliveries set status = 'failed', completed_at = now() where account_id = $1 and status = 'pending' and lease_until is null`, [slow]);
  }
} finally {
  await proc.stop();
  receiver.disconnect();
  await pool.end();
  rmSync(dataDir, { recursive: true, force: true });
}
