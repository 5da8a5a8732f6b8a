// Before/after in one run: POST /send against this checkout's build and another checkout's (BENCH_BASE, e.g. a
// worktree at the commit before a change), each a `tasman start` with the API role only on its own database, in
// alternating rounds (the base first in even rounds). Per round: requests/s (autocannon, 50 connections, rotating
// BENCH_KEYS keys, default 100), and CPU per request: the node process's user + system time over the round, and
// its PostgreSQL backends' (pg_stat_activity of its database), divided by the requests served. The ratios are
// this build / the base; the last line holds their medians.
// Usage: git worktree add --detach /tmp/tasman-base <commit> && ln -s "$PWD/node_modules" /tmp/tasman-base/;
//   createdb -h 127.0.0.1 -U postgres bench_ab;
//   flock /tmp/tasman-bench.lock env BENCH_BASE=/tmp/tasman-base DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_ab npx tsx bench/ab.ts
// (the base's database is DATABASE_URL's with `_base` appended, dropped and created by this script).
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { cpuByPid, treeCpuMs } from './proc-stats.ts';
import { benchSetup, call, deliverableRecipients, startTasmanProcess, type BenchProcess } from './tasman-process.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const KEYS = Number(process.env.BENCH_KEYS ?? 100);
const base = process.env.BENCH_BASE;
const { databaseUrl, dataDir, print } = benchSetup('ab');
if (!databaseUrl || !base) throw new Error('set DATABASE_URL (an empty database) and BENCH_BASE (another checkout)');
const baseUrl = new URL(databaseUrl);
baseUrl.pathname += '_base';
const recipient = deliverableRecipients();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round2 = (x: number) => Math.round(x * 100) / 100;

const adminUrl = new URL(databaseUrl);
adminUrl.pathname = '/postgres';
const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect();
await admin.query(`drop database if exists "${baseUrl.pathname.slice(1)}" with (force)`);
await admin.query(`create database "${baseUrl.pathname.slice(1)}"`);

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

async function round(b: Build) {
  const backends = async () => (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [b.db])).rows.map((r) => r.pid);
  const pgBefore = cpuByPid(await backends());
  const nodeBefore = treeCpuMs([b.proc.child.pid!]);
  let n = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => autocannon({
    url: `${b.proc.url}/send`, connections: 50, duration: SECONDS, method: 'POST',
    requests: [{
      setupRequest: (req) => ({
        ...req,
        headers: { authorization: `Bearer ${b.keys[n++ % b.keys.length]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: recipient(), message: 'Your order has shipped' }),
      }),
    }],
  }, (err, r) => (err ? reject(err) : resolve(r))));
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

try {
  const baseBuild = await start('base', baseUrl.toString(), path.join(path.resolve(base), 'bin', 'tasman.js'));
  const thisBuild = await start('this', databaseUrl);
  for (const b of builds) await round(b); // warm-up, not reported
  const ratios = { rate: [] as number[], node_cpu: [] as number[], pg_cpu: [] as number[] };
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = r % 2 === 0 ? [baseBuild, thisBuild] : [thisBuild, baseBuild];
    const out: Record<string, Awaited<ReturnType<typeof round>>> = {};
    for (const b of order) out[b.name] = await round(b);
    const ratio = {
      rate: round2(out.this!.requests_per_s / out.base!.requests_per_s),
      node_cpu: round2(out.this!.node_us_per_req / out.base!.node_us_per_req),
      pg_cpu: round2(out.this!.pg_us_per_req / out.base!.pg_us_per_req),
    };
    ratios.rate.push(ratio.rate); ratios.node_cpu.push(ratio.node_cpu); ratios.pg_cpu.push(ratio.pg_cpu);
    print({ bench: 'ab-send-round', keys: KEYS, round: r, first: order[0]!.name, base: out.base, this: out.this, ratio });
  }
  print({ bench: 'ab-send-median', keys: KEYS, rounds: ROUNDS, seconds: SECONDS, rate_ratio: median(ratios.rate), node_cpu_ratio: median(ratios.node_cpu), pg_cpu_ratio: median(ratios.pg_cpu) });
} finally {
  for (const b of builds) await b.proc.stop();
  await admin.query(`drop database if exists "${baseUrl.pathname.slice(1)}" with (force)`);
  await admin.end();
}
