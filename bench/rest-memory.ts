// Memory at rest and start-up, this build against another checkout's (BENCH_BASE), in alternating rounds: each
// round starts `tasman start` (the default cluster, TASMAN_WORKERS=BENCH_WORKERS, default unset: one API process
// per core less one, beside the workers process and the primary; and one process, TASMAN_WORKERS=0), waits for its
// banner, lets it settle (BENCH_SETTLE_MS, default 35 s), and reads every node process's resident set from /proc
// (the embedded PostgreSQL is not used: DATABASE_URL), by role, with its anonymous part (the process's own) and
// its file-backed part (mostly the node binary's pages, which every process maps and the kernel shares).
// Start-up: spawn → banner, and the CPU the node processes spent until then. The ratios are this build / the
// base; medians last.
// Usage: git worktree add --detach ../tasman-base <commit> && ln -s "$PWD/node_modules" ../tasman-base/;
//   createdb -h 127.0.0.1 -U postgres bench_rest;
//   flock /tmp/tasman-bench.lock env BENCH_ROUNDS=3 BENCH_BASE=../tasman-base DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_rest npx tsx bench/rest-memory.ts
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tree } from './proc-stats.ts';
import { median } from './stats.ts';
import { benchSetup, startTasmanProcess } from './tasman-process.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
// tasman collects its start-up heap at 10, 20 and 30 s (cli/serving.ts settleHeap): read after that.
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 35_000);
const CLUSTER = process.env.BENCH_WORKERS ?? '';
const base = process.env.BENCH_BASE;
const { databaseUrl, dataDir, print } = benchSetup('rest');
if (!databaseUrl || !base) throw new Error('set DATABASE_URL and BENCH_BASE (another checkout)');

const isNode = (pid: number) => {
  try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'node'; } catch { return false; }
};

/** A cluster child's role (TASMAN_ROLES, set by its primary); the process started first is the primary. */
const roleOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((v) => v.startsWith('TASMAN_ROLES='))?.slice(13) ?? 'primary';
  } catch { return '?'; }
};

/** Resident MB, and its anonymous and file-backed parts (/proc/<pid>/status). */
function residentMb(pid: number): { rss: number; anon: number; file: number } {
  let status = '';
  try { status = readFileSync(`/proc/${pid}/status`, 'utf8'); } catch { /* gone */ }
  const mb = (field: string) => Math.round(Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) / 1024);
  return { rss: mb('VmRSS'), anon: mb('RssAnon'), file: mb('RssFile') + mb('RssShmem') };
}

async function measure(build: 'base' | 'this', workers: string) {
  const started = performance.now();
  const proc = await startTasmanProcess({
    DATA_DIR: `${dataDir}-${build}`, DATABASE_URL: databaseUrl!, TASMAN_ADMIN_TOKEN: 'bench-admin', TASMAN_WORKERS: workers, LOG_LEVEL: 'info',
  }, [], build === 'base' ? path.join(base!, 'bin/tasman.js') : undefined);
  const startMs = Math.round(performance.now() - started);
  try {
    const startCpuMs = tree([proc.child.pid!]).filter((s) => isNode(s.pid)).reduce((sum, s) => sum + s.cpuMs, 0);
    await sleep(SETTLE_MS);
    const processes = tree([proc.child.pid!]).filter((s) => isNode(s.pid)).map((s) => ({ role: roleOf(s.pid), ...residentMb(s.pid) }));
    return {
      startMs, startCpuMs, rssMb: processes.reduce((sum, p) => sum + p.rss, 0), anonMb: processes.reduce((sum, p) => sum + p.anon, 0),
      perProcessMb: processes.map((p) => `${p.role} ${p.rss} (anon ${p.anon}, file ${p.file})`),
    };
  } finally {
    await proc.stop();
  }
}

try {
  for (const workers of [CLUSTER, '0']) {
    const ratios: Record<string, number[]> = { rss: [], start: [], start_cpu: [] };
    const sides: Record<string, Record<string, number[]>> = { base: { rss: [], anon: [], start: [] }, this: { rss: [], anon: [], start: [] } };
    for (let r = 0; r < ROUNDS; r += 1) {
      const order: Array<'base' | 'this'> = r % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
      const got: Record<string, Awaited<ReturnType<typeof measure>>> = {};
      for (const build of order) got[build] = await measure(build, workers);
      for (const b of order) { sides[b]!.rss!.push(got[b]!.rssMb); sides[b]!.anon!.push(got[b]!.anonMb); sides[b]!.start!.push(got[b]!.startMs); }
      ratios.rss!.push(got.this!.rssMb / got.base!.rssMb);
      ratios.start!.push(got.this!.startMs / got.base!.startMs);
      ratios.start_cpu!.push(got.this!.startCpuMs / got.base!.startCpuMs);
      print({ bench: 'rest-memory', workers: workers || 'default', round: r + 1, base: got.base, this: got.this });
    }
    print({
      bench: 'rest-memory', workers: workers || 'default', medians: true,
      base_rss_mb: median(sides.base!.rss!), this_rss_mb: median(sides.this!.rss!),
      base_anon_mb: median(sides.base!.anon!), this_anon_mb: median(sides.this!.anon!),
      base_start_ms: median(sides.base!.start!), this_start_ms: median(sides.this!.start!),
      rss_ratio: Math.round(median(ratios.rss!) * 100) / 100, start_ratio: Math.round(median(ratios.start!) * 100) / 100,
      start_cpu_ratio: Math.round(median(ratios.start_cpu!) * 100) / 100,
    });
  }
} finally {
  for (const dir of [dataDir, `${dataDir}-base`, `${dataDir}-this`]) rmSync(dir, { recursive: true, force: true });
}
