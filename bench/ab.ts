// Before/after in one run: POST /send against this checkout's build and another checkout's (BENCH_BASE, e.g. a
// worktree at the commit before a change), each a `tasman start` with the API role only on its own database, in
// alternating rounds (the base first in even rounds). Per round: requests/s (autocannon, 50 connections, rotating
// BENCH_KEYS keys, default 100), and CPU per request: the node process's user + system time over the round, and
// its PostgreSQL backends' (pg_stat_activity of its database), divided by the requests served. The ratios are
// this build / the base; the last line holds their medians and geometric means (read the latter: stats.ts).
// BENCH_MODE=pipeline measures the whole path instead (bench/e2e.ts): each build a `tasman start` with every role
// (TASMAN_WORKERS as set, else one process) bound to one `tasman simulator` process, BENCH_MESSAGES (5000) /send
// requests a round over BENCH_KEYS accounts, each with its delivery webhook on a receiver here; per round the
// accept and end-to-end rates and the CPU per message of the build's processes and PostgreSQL backends.
// Every line carries the load average at its end.
// Usage: git worktree add --detach ../tasman-base <commit> && ln -s "$PWD/node_modules" ../tasman-base/;
//   flock /tmp/tasman-bench.lock env BENCH_BASE=../tasman-base DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_ab npx tsx bench/ab.ts
// (each build's database is DATABASE_URL's with `_base` or `_this` appended, dropped and created by this script,
// so both start empty: a database left from an earlier run skewed one side's PostgreSQL figures).
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { primedRound, runRound, startCallbackReceiver, tasmanSystem, type RoundResult, type System } from './e2e.ts';
import { cpuByPid, treeCpuMs } from './proc-stats.ts';
import { geomean, median, round2 } from './stats.ts';
import { benchSetup, call, deliverableRecipients, sendLoad, startSimulatorProcess, startTasmanProcess, type BenchProcess } from './tasman-process.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const KEYS = Number(process.env.BENCH_KEYS ?? 100);
const MODE = process.env.BENCH_MODE ?? 'send';
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
// BENCH_PRIME: messages of an unreported round run on a build right before each of its measured rounds (pipeline;
// the send mode runs 2 s), so neither side is measured right after the other (e2e.ts primedRound); 0 for none.
const PRIME = Number(process.env.BENCH_PRIME ?? 1000);
const base = process.env.BENCH_BASE;
const { databaseUrl, dataDir, print: printLine } = benchSetup('ab');
const print = (figure: Record<string, unknown>) => printLine({ ...figure, load: loadavg().map((x) => round2(x)) });
if (!databaseUrl || !base) throw new Error('set DATABASE_URL (its name prefixes the two databases this script makes) and BENCH_BASE (another checkout)');
const basePath = path.resolve(base);
const fresh = (suffix: string) => { const u = new URL(databaseUrl); u.pathname += suffix; return u; };
const baseUrl = fresh('_base');
const thisUrl = fresh('_this');
const dbNames = [baseUrl, thisUrl].map((u) => u.pathname.slice(1));
const recipient = deliverableRecipients();

const adminUrl = new URL(databaseUrl);
adminUrl.pathname = '/postgres';
const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect();
for (const name of dbNames) {
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
}

interface Build { name: 'base' | 'this'; proc: BenchProcess; keys: string[]; db: string }
const builds: Build[] = [];

async function start(name: Build['name'], url: string, bin?: string): Promise<Build> {
  const proc = await startTasmanProcess({
    DATA_DIR: `${dataDir}-${name}`, DATABASE_URL: url, TASMAN_ADMIN_TOKEN: 'bench-admin', TASMAN_ROLES: 'api',
    LOG_LEVEL: 'info', RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
  }, undefined, bin);
  const b: Build = { name, proc, keys: [], db: new URL(url).pathname.slice(1) };
  builds.push(b);
  for (let i = 0; i < KEYS; i += 1) {
    const created = await call('POST', `${proc.url}/admin/accounts`, 'bench-admin', { business_name: `AB ${i}`, email: `ab${i}@example.com`, credits: 100_000_000 });
    if (created.status !== 201) throw new Error(`${name} account: ${JSON.stringify(created.json)}`);
    b.keys.push(created.json.api_key as string);
  }
  return b;
}

async function round(b: Build, seconds = SECONDS) {
  const backends = async () => (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [b.db])).rows.map((r) => r.pid);
  const pgBefore = cpuByPid(await backends());
  const nodeBefore = treeCpuMs([b.proc.child.pid!]);
  const result = await sendLoad(b.proc.url, b.keys, { seconds, recipient });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${b.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const nodeMs = treeCpuMs([b.proc.child.pid!]) - nodeBefore;
  let pgMs = 0;
  for (const [pid, ms] of cpuByPid(await backends())) pgMs += ms - (pgBefore.get(pid) ?? 0);
  const requests = result.requests.total;
  return {
    requests_per_s: Math.round(result.requests.average), p99_ms: result.latency.p99,
    node_us_per_req: Math.round((nodeMs * 1000) / requests), pg_us_per_req: Math.round((pgMs * 1000) / requests),
  };
}

/** BENCH_MODE=pipeline: accepted → delivered → webhook, both builds against one simulator process. */
async function pipeline(): Promise<void> {
  const stops: Array<() => Promise<unknown> | unknown> = [];
  try {
    const receiver = await startCallbackReceiver();
    stops.unshift(() => receiver.close());
    const sim = await startSimulatorProcess();
    stops.unshift(() => sim.child.kill('SIGTERM'));
    const systems: Record<string, System> = {};
    for (const [name, url, bin] of [['base', baseUrl.toString(), path.join(basePath, 'bin', 'tasman.js')], ['this', thisUrl.toString(), undefined]] as const) {
      const proc = await startTasmanProcess({
        DATA_DIR: `${dataDir}-${name}`, DATABASE_URL: url, TASMAN_ADMIN_TOKEN: 'bench-admin', TASMAN_SIMULATOR: 'false',
        SMPP_HOST: '127.0.0.1', SMPP_PORT: String(sim.port), SMPP_WINDOW: '100', LOG_LEVEL: 'info',
        RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000', WEBHOOK_ALLOW_PRIVATE: 'true',
      }, undefined, bin);
      stops.unshift(() => proc.stop());
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      stops.unshift(() => db.end());
      const t = await tasmanSystem({ name, proc, db, receiver, keyCount: KEYS, connections: 50, recipient, text: 'Your order has shipped' });
      stops.unshift(() => t.close());
      systems[name] = t.system;
    }
    const opts = (tag: string) => ({ keys: KEYS, messages: MESSAGES, connections: 50, tag });
    for (const name of ['base', 'this']) await runRound(receiver, systems[name]!, { ...opts(`w-${name}`), messages: Math.min(2000, MESSAGES) });
    const ratios = { accept: [] as number[], e2e: [] as number[], cpu: [] as number[] };
    for (let r = 0; r < ROUNDS; r += 1) {
      const order = r % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
      const out: Record<string, RoundResult> = {};
      for (const name of order) out[name] = await primedRound(receiver, systems[name]!, { ...opts(`${r}-${name}`), prime: PRIME });
      const ratio = {
        accept: round2(out.this!.accept_per_s / out.base!.accept_per_s), e2e: round2(out.this!.e2e_per_s / out.base!.e2e_per_s),
        cpu: round2(out.this!.cpu_ms_per_msg / out.base!.cpu_ms_per_msg),
      };
      ratios.accept.push(ratio.accept); ratios.e2e.push(ratio.e2e); ratios.cpu.push(ratio.cpu);
      print({ bench: 'ab-pipeline-round', keys: KEYS, round: r, first: order[0], base: out.base, this: out.this, ratio });
    }
    print({
      bench: 'ab-pipeline-median', keys: KEYS, rounds: ROUNDS, messages: MESSAGES, prime: PRIME,
      accept_ratio: median(ratios.accept), e2e_ratio: median(ratios.e2e), cpu_ratio: median(ratios.cpu),
      accept_geomean: geomean(ratios.accept), e2e_geomean: geomean(ratios.e2e), cpu_geomean: geomean(ratios.cpu),
    });
  } finally {
    for (const stop of stops) await Promise.resolve().then(stop).catch(() => {});
  }
}

/** POST /send alone (the API role), both builds in alternating rounds. */
async function sendRounds(): Promise<void> {
  try {
    const baseBuild = await start('base', baseUrl.toString(), path.join(basePath, 'bin', 'tasman.js'));
    const thisBuild = await start('this', thisUrl.toString());
    for (const b of builds) await round(b); // warm-up, not reported
    const ratios = { rate: [] as number[], node_cpu: [] as number[], pg_cpu: [] as number[] };
    for (let r = 0; r < ROUNDS; r += 1) {
      const order = r % 2 === 0 ? [baseBuild, thisBuild] : [thisBuild, baseBuild];
      const out: Record<string, Awaited<ReturnType<typeof round>>> = {};
      for (const b of order) {
        if (PRIME > 0) await round(b, Math.min(2, SECONDS)); // unreported: each round starts as the build's own second
        out[b.name] = await round(b);
      }
      const ratio = {
        rate: round2(out.this!.requests_per_s / out.base!.requests_per_s),
        node_cpu: round2(out.this!.node_us_per_req / out.base!.node_us_per_req),
        pg_cpu: round2(out.this!.pg_us_per_req / out.base!.pg_us_per_req),
      };
      ratios.rate.push(ratio.rate); ratios.node_cpu.push(ratio.node_cpu); ratios.pg_cpu.push(ratio.pg_cpu);
      print({ bench: 'ab-send-round', keys: KEYS, round: r, first: order[0]!.name, base: out.base, this: out.this, ratio });
    }
    print({
      bench: 'ab-send-median', keys: KEYS, rounds: ROUNDS, seconds: SECONDS, prime: PRIME,
      rate_ratio: median(ratios.rate), node_cpu_ratio: median(ratios.node_cpu), pg_cpu_ratio: median(ratios.pg_cpu),
      rate_geomean: geomean(ratios.rate), node_cpu_geomean: geomean(ratios.node_cpu), pg_cpu_geomean: geomean(ratios.pg_cpu),
    });
  } finally {
    for (const b of builds) await b.proc.stop();
  }
}

try {
  if (MODE === 'pipeline') await pipeline();
  else await sendRounds();
} finally {
  for (const name of dbNames) await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
  for (const dir of [dataDir, `${dataDir}-base`, `${dataDir}-this`]) rmSync(dir, { recursive: true, force: true });
}
