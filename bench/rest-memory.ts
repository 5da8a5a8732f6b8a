// Memory at rest and start-up, this build against another checkout's (BENCH_BASE), in alternating rounds: each
// round starts `tasman start` (the default cluster, TASMAN_WORKERS=BENCH_WORKERS, default 2, and one process,
// TASMAN_WORKERS=0), waits for its banner, lets it settle (BENCH_SETTLE_MS, default 35 s), and reads every node
// process's resident set from /proc (the embedded PostgreSQL is not used: DATABASE_URL). Start-up: spawn →
// banner, and the CPU the node processes spent until then. The ratios are this build / the base; medians last.
// Usage: git worktree add --detach ../tasman-base <commit> && ln -s "$PWD/node_modules" ../tasman-base/;
//   createdb -h 127.0.0.1 -U postgres bench_rest;
//   flock /tmp/tasman-bench.lock env BENCH_BASE=../tasman-base DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_rest npx tsx bench/rest-memory.ts
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tree } from './proc-stats.ts';
import { median } from './stats.ts';
import { benchSetup, startTasmanProcess } from './tasman-process.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
// tasman collects its start-up heap at 10, 20 and 30 s (cli/serving.ts settleHeap): read after that.
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 35_000);
const CLUSTER = process.env.BENCH_WORKERS ?? '2';
const base = process.env.BENCH_BASE;
const { databaseUrl, dataDir, print } = benchSetup('rest');
if (!databaseUrl || !base) throw new Error('set DATABASE_URL and BENCH_BASE (another checkout)');

const isNode = (pid: number) => {
  try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'node'; } catch { return false; }
};

async function measure(build: 'base' | 'this', workers: string) {
  const started = performance.now();
  const proc = await startTasmanProcess({
    DATA_DIR: `${dataDir}-${build}`, DATABASE_URL: databaseUrl!, TASMAN_ADMIN_TOKEN: 'bench-admin', TASMAN_WORKERS: workers, LOG_LEVEL: 'info',
  }, [], build === 'base' ? path.join(base!, 'bin/tasman.js') : undefined);
  const startMs = Math.round(performance.now() - started);
  try {
    const startCpuMs = tree([proc.child.pid!]).filter((s) => isNode(s.pid)).reduce((sum, s) => sum + s.cpuMs, 0);
    await sleep(SETTLE_MS);
    const rss = tree([proc.child.pid!]).filter((s) => isNode(s.pid)).map((s) => Math.round(s.rssKb / 1024)).sort((a, b) => b - a);
    return { startMs, startCpuMs, rssMb: rss.reduce((a, b) => a + b, 0), perProcessMb: rss };
  } finally {
    await proc.stop();
  }
}

try {
  for (const workers of [CLUSTER, '0']) {
    const ratios: Record<string, number[]> = { rss: [], start: [], start_cpu: [] };
    const sides: Record<string, Record<string, number[]>> = { base: { rss: [], start: [] }, this: { rss: [], start: [] } };
    for (let r = 0; r < ROUNDS; r += 1) {
      const order: Array<'base' | 'this'> = r % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
      const got: Record<string, Awaited<ReturnType<typeof measure>>> = {};
      for (const build of order) got[build] = await measure(build, workers);
      for (const b of order) { sides[b]!.rss!.push(got[b]!.rssMb); sides[b]!.start!.push(got[b]!.startMs); }
      ratios.rss!.push(got.this!.rssMb / got.base!.rssMb);
      ratios.start!.push(got.this!.startMs / got.base!.startMs);
      ratios.start_cpu!.push(got.this!.startCpuMs / got.base!.startCpuMs);
      print({ bench: 'rest-memory', workers, round: r + 1, base: got.base, this: got.this });
    }
    print({
      bench: 'rest-memory', workers, medians: true,
      base_rss_mb: median(sides.base!.rss!), this_rss_mb: median(sides.this!.rss!),
      base_start_ms: median(sides.base!.start!), this_start_ms: median(sides.this!.start!),
      rss_ratio: Math.round(median(ratios.rss!) * 100) / 100, start_ratio: Math.round(median(ratios.start!) * 100) / 100,
      start_cpu_ratio: Math.round(median(ratios.start_cpu!) * 100) / 100,
    });
  }
} finally {
  for (const dir of [dataDir, `${dataDir}-base`, `${dataDir}-this`]) rmSync(dir, { recursive: true, force: true });
}
