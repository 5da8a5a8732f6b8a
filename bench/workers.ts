// POST /send against `tasman start` with TASMAN_WORKERS=1 and =2 (every role: API processes plus the workers
// process, as `npm start` runs), side by side in one run: both servers stay up and take alternate rounds, each
// round starting once the previous round's messages have left the queue, so its delivery work does not land on
// the next round. Prints one JSON line per round and the medians with their ratio.
// Usage: flock /tmp/tasman-bench.lock npx tsx bench/workers.ts   (DATABASE_URL unset: an embedded PostgreSQL each)
// BENCH_SECONDS (default 10), BENCH_ROUNDS (default 5), BENCH_WORKERS (default "1,2").
import type autocannon from 'autocannon';
import { request } from 'undici';
import { median } from './stats.ts';
import { benchSetup, call, deliverableRecipients, sendLoad, startTasmanProcess, type BenchProcess } from './tasman-process.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const variants = (process.env.BENCH_WORKERS ?? '1,2').split(',').map((s) => s.trim());
const connections = 50;
const databaseUrl = process.env.DATABASE_URL;

interface Server { workers: string; proc: BenchProcess; token: string; keys: string[] }

async function start(workers: string): Promise<Server> {
  const { dataDir } = benchSetup(`workers-${workers}`);
  const token = 'bench-admin';
  const proc = await startTasmanProcess({
    DATA_DIR: dataDir, TASMAN_WORKERS: workers, TASMAN_ADMIN_TOKEN: token,
    RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
    // Two servers on one PostgreSQL would share its tables: each takes a database of its own.
    ...(databaseUrl ? { DATABASE_URL: `${databaseUrl.replace(/\/[^/]*$/, '')}/bench_workers_${workers}` } : {}),
  });
  const keys: string[] = [];
  for (let i = 0; i < 100; i += 1) {
    const created = await call('POST', `${proc.url}/admin/accounts`, token, { business_name: `Bench ${i}`, email: `bench${i}@example.com`, credits: 10_000_000 });
    keys.push(created.json.api_key as string);
  }
  return { workers, proc, token, keys };
}

/** Until nothing waits in the messages queue (the metrics read the shared figure). */
async function drained(server: Server): Promise<void> {
  for (;;) {
    const res = await request(`${server.proc.url}/metrics`, { headers: { authorization: `Bearer ${server.token}` } });
    const text = await res.body.text();
    const depth = Number(/^tasman_queue_depth\{queue="messages"\} (\d+)/m.exec(text)?.[1] ?? 0);
    if (depth === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function round(server: Server, recipient: () => string): Promise<autocannon.Result> {
  return sendLoad(server.proc.url, server.keys, { seconds, connections, recipient });
}


if (databaseUrl) {
  // A database per variant, made afresh (createdb through the server's own maintenance database).
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  for (const w of variants) {
    await client.query(`drop database if exists bench_workers_${w} with (force)`);
    await client.query(`create database bench_workers_${w}`);
  }
  await client.end();
}

const servers: Server[] = [];
try {
  for (const w of variants) servers.push(await start(w));
  const recipient = deliverableRecipients();
  const results = new Map<string, autocannon.Result[]>(variants.map((w) => [w, []]));
  for (let r = 0; r < rounds; r += 1) {
    // Alternate which goes first, so a slow spell on the shared machine lands on both.
    for (const server of r % 2 === 0 ? servers : [...servers].reverse()) {
      await drained(server);
      const result = await round(server, recipient);
      results.get(server.workers)!.push(result);
      process.stdout.write(`${JSON.stringify({ bench: 'send-workers', round: r + 1, workers: Number(server.workers), requests_per_s: result.requests.average, p50_ms: result.latency.p50, p99_ms: result.latency.p99, non2xx: result.non2xx, errors: result.errors })}\n`);
    }
  }
  const medians = variants.map((w) => ({ workers: Number(w), rps: median(results.get(w)!.map((x) => x.requests.average)), p99: median(results.get(w)!.map((x) => x.latency.p99)) }));
  for (const m of medians) process.stdout.write(`${JSON.stringify({ bench: 'send-workers-median', db: databaseUrl ? 'postgres' : 'embedded', rounds, workers: m.workers, requests_per_s: m.rps, p99_ms: m.p99 })}\n`);
  // Per-round ratios against the first variant, then their median.
  const base = results.get(variants[0]!)!;
  for (const w of variants.slice(1)) {
    const ratios = results.get(w)!.map((x, i) => x.requests.average / base[i]!.requests.average);
    process.stdout.write(`${JSON.stringify({ bench: 'send-workers-ratio', of: Number(w), to: Number(variants[0]), per_round: ratios.map((x) => Number(x.toFixed(3))), median: Number(median(ratios).toFixed(3)) })}\n`);
  }
} finally {
  for (const s of servers) await s.proc.stop('SIGTERM');
}
