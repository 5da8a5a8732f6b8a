// `tasman start` in a child process for the benchmarks: test/support/process.ts with profiling flags and the
// server's errors echoed.
import { mkdirSync } from 'node:fs';
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
