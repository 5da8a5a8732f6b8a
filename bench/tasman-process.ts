// `tasman start` in a child process for the benchmarks: test/support/process.ts with profiling flags and the
// server's errors echoed.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startProcess, type TasmanProcess } from '../test/support/process.ts';

export type BenchProcess = TasmanProcess;

/** BENCH_CPU_PROF=<dir>: the server writes a .cpuprofile there when it stops (summarise with bench/profile.ts). */
export function profileFlags(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return [];
  mkdirSync(path.resolve(dir), { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`];
}

export function startTasmanProcess(env: Record<string, string>, nodeArgs: string[] = profileFlags()): Promise<BenchProcess> {
  return startProcess(env, { nodeArgs, echoErrors: true });
}

/** What every benchmark starts with: the database it runs on, a scratch DATA_DIR, and the one-JSON-line printer. */
export function benchSetup(name: string) {
  const databaseUrl = process.env.DATABASE_URL;
  const db = databaseUrl ? 'postgres' : 'embedded';
  return {
    databaseUrl,
    db,
    dataDir: mkdtempSync(path.join(tmpdir(), `tasman-bench-${name}-`)),
    print: (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ db, ...figure })}\n`),
  };
}
