// How fast Tasman acknowledges receipts under load (the target: deliver_sm_resp p99 under 250 ms at the
// pipeline's full rate). A real `tasman start` in a child process binds to a receipt-timing SMSC in this process
// (test/support/receipt-smsc.ts, npm `smpp`: accepts every submit, sends a DELIVRD deliver_sm for each at once,
// window 100 per session, and times each deliver_sm until its deliver_sm_resp). Two rounds per run:
//  - receipts-full: BENCH_BATCHES (20) × POST /send-batch of 1,000 fired together: the pipeline's full rate;
//    messages/s is from the first send to the last receipt acknowledged (so it is the pipeline's rate too);
//  - receipts-steady: BENCH_STEADY (1,000) single sends at BENCH_STEADY_RPS (100/s): the baseline, same run.
// Prints one JSON line per round: {build, bench, messages, messages_per_s, p50_ms, p99_ms, max_ms, resent,
// node_ms_per_1k, pg_ms_per_1k (CPU per 1,000 messages), load}.
// A/B: BENCH_BASE=<another checkout> runs its build too, BENCH_ROUNDS times each, alternating (the base first in
// even rounds), each run on a fresh database and a fresh SMSC; the last line holds the medians' ratios this/base.
// Usage: createdb -h 127.0.0.1 -U postgres bench_receipts;
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_receipts [BENCH_BASE=../tasman-base BENCH_ROUNDS=3] \
//   flock /tmp/tasman-bench.lock npx tsx bench/receipts.ts
// (each run's database is DATABASE_URL's with `_this` or `_base` appended, dropped and created by this script).
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuByPid, treeCpuMs } from './proc-stats.ts';
import { median } from './stats.ts';
import { benchSetup, call, deliverableRecipients, startTasmanProcess } from './tasman-process.ts';
import { startReceiptSmsc } from '../test/support/receipt-smsc.ts';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 20);
const BATCH_SIZE = 1000;
const STEADY = Number(process.env.BENCH_STEADY ?? 1000);
const STEADY_RPS = Number(process.env.BENCH_STEADY_RPS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const base = process.env.BENCH_BASE;
const { databaseUrl, dataDir, print } = benchSetup('receipts');
if (!databaseUrl) throw new Error('bench/receipts.ts needs DATABASE_URL (the SMSC is external, so the simulator is off)');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number((s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0).toFixed(1));
};
const recipient = deliverableRecipients();
const adminUrl = new URL(databaseUrl);
adminUrl.pathname = '/postgres';
const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect();

type Figure = Record<string, number | string>;

/** One run of both rounds against one build, on a fresh database and a fresh SMSC. */
async function run(build: 'this' | 'base'): Promise<Figure[]> {
  const dbName = `${new URL(databaseUrl!).pathname.slice(1)}_${build}`;
  await admin.query(`drop database if exists "${dbName}" with (force)`);
  await admin.query(`create database "${dbName}"`);
  const url = new URL(databaseUrl!);
  url.pathname = `/${dbName}`;
  // BENCH_RECEIPT_DELAY_MS: how long after accepting a submit the SMSC sends its receipt (0: at once, the harshest
  // case, as each receipt then also waits for its message's `sent` write; a handset takes seconds).
  const smsc = await startReceiptSmsc({ window: 100, receiptDelayMs: Number(process.env.BENCH_RECEIPT_DELAY_MS ?? 0) });
  const proc = await startTasmanProcess({
    DATABASE_URL: url.toString(), TASMAN_ADMIN_TOKEN: 'bench-admin', TASMAN_SIMULATOR: 'false', DATA_DIR: `${dataDir}-${build}`,
    SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port), SMPP_WINDOW: '100',
    RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
  }, undefined, build === 'base' ? path.join(base!, 'bin', 'tasman.js') : undefined);
  const backends = async () => (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [dbName])).rows.map((r) => r.pid);

  async function acknowledgedAll(target: number, what: string): Promise<void> {
    const deadline = Date.now() + 600_000;
    while (smsc.acknowledged() < target) {
      if (Date.now() > deadline) throw new Error(`${what}: ${smsc.acknowledged()} of ${target} receipts acknowledged after 600 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  // Times one round: the SMSC's deliver_sm → deliver_sm_resp latencies, and the CPU the server and its backends used.
  async function measured(bench: string, messages: number, body: () => Promise<void>): Promise<Figure> {
    const from = smsc.latenciesMs.length;
    const resentBefore = smsc.resent();
    const target = smsc.acknowledged() + messages;
    const pgBefore = cpuByPid(await backends());
    const nodeBefore = treeCpuMs([proc.child.pid!]);
    const startedAt = performance.now();
    await body();
    await acknowledgedAll(target, bench);
    const seconds = (performance.now() - startedAt) / 1000;
    const nodeMs = treeCpuMs([proc.child.pid!]) - nodeBefore;
    let pgMs = 0;
    for (const [pid, ms] of cpuByPid(await backends())) pgMs += ms - (pgBefore.get(pid) ?? 0);
    const latencies = smsc.latenciesMs.slice(from);
    const figure = {
      build, bench, messages, messages_per_s: Math.round(messages / seconds), p50_ms: pct(latencies, 0.5), p99_ms: pct(latencies, 0.99),
      max_ms: pct(latencies, 1), resent: smsc.resent() - resentBefore,
      node_ms_per_1k: Math.round((nodeMs * 1000) / messages), pg_ms_per_1k: Math.round((pgMs * 1000) / messages), load: loadavg()[0]!.toFixed(1),
    };
    print(figure);
    return figure;
  }

  try {
    const account = async (i: number) => {
      const created = await call('POST', `${proc.url}/admin/accounts`, 'bench-admin', { business_name: `Receipts ${i}`, email: `receipts${i}@example.com`, credits: 1_000_000 });
      if (created.status !== 201) throw new Error(`account: ${JSON.stringify(created.json)}`);
      return created.json.api_key as string;
    };
    // Full rate: every batch from its own account, all fired at once.
    const keys = await Promise.all(Array.from({ length: BATCHES + 1 }, (_, i) => account(i)));
    const full = await measured('receipts-full', BATCHES * BATCH_SIZE, async () => {
      await Promise.all(keys.slice(0, BATCHES).map(async (key) => {
        const res = await call('POST', `${proc.url}/send-batch`, key, { message: 'Your parcel is on its way', recipients: Array.from({ length: BATCH_SIZE }, () => recipient()) });
        if (res.json.recipients_queued !== BATCH_SIZE) throw new Error(`batch failed: ${JSON.stringify(res.json)}`);
      }));
    });
    // Baseline in the same run: a steady, light load.
    const steady = await measured('receipts-steady', STEADY, async () => {
      const started = performance.now();
      const sends: Array<Promise<void>> = [];
      for (let i = 0; i < STEADY; i++) {
        const wait = started + (i * 1000) / STEADY_RPS - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        sends.push(call('POST', `${proc.url}/send`, keys[BATCHES]!, { to: recipient(), message: 'Your code is 123456' }).then((res) => {
          if (res.status !== 200) throw new Error(`send: ${res.status} ${JSON.stringify(res.json)}`);
        }));
      }
      await Promise.all(sends);
    });
    return [full, steady];
  } finally {
    await proc.stop();
    await smsc.stop();
    rmSync(`${dataDir}-${build}`, { recursive: true, force: true });
    await admin.query(`drop database if exists "${dbName}" with (force)`);
  }
}

try {
  const figures: Figure[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order: Array<'this' | 'base'> = !base ? ['this'] : r % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
    for (const build of order) figures.push(...await run(build));
  }
  if (base) {
    const summary: Record<string, number> = {};
    for (const bench of ['receipts-full', 'receipts-steady']) {
      for (const field of ['messages_per_s', 'p50_ms', 'p99_ms', 'node_ms_per_1k', 'pg_ms_per_1k']) {
        const of = (build: string) => median(figures.filter((f) => f.build === build && f.bench === bench).map((f) => Number(f[field])));
        summary[`${bench}.${field}.ratio`] = Math.round((of('this') / of('base')) * 100) / 100;
        summary[`${bench}.${field}.this`] = of('this');
        summary[`${bench}.${field}.base`] = of('base');
      }
    }
    print({ bench: 'receipts-ab', rounds: ROUNDS, ...summary });
  }
} finally {
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
