// `tasman start` in a child process for the benchmarks: like test/support/process.ts, plus node flags (the
// --cpu-prof flags cannot go through NODE_OPTIONS) and roles without the API (no URL is logged then).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/tasman.js', import.meta.url));

export interface BenchProcess {
  url: string;
  child: ChildProcess;
  logs: string[];
  stop(): Promise<number | null>;
}

/** BENCH_CPU_PROF=<dir>: the server writes a .cpuprofile there when it stops (summarise with bench/profile.ts). */
export function profileFlags(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return [];
  mkdirSync(path.resolve(dir), { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`];
}

export async function startTasmanProcess(env: Record<string, string>, nodeArgs: string[] = profileFlags()): Promise<BenchProcess> {
  const child = spawn(process.execPath, [...nodeArgs, bin, 'start'], {
    env: { ...process.env, PORT: '0', SIM_PORT: '0', SIM_CONTROL_PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tasman did not start:\n${logs.join('\n')}`)), 45_000);
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        logs.push(line);
        if (logs.length > 200) logs.shift();
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string; level?: number };
          if (entry.msg === 'tasman started') { clearTimeout(timer); resolve(entry.url ?? ''); }
          if ((entry.level ?? 0) >= 50) process.stderr.write(`server: ${line}\n`);
        } catch { /* not JSON */ }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => { logs.push(chunk.toString()); process.stderr.write(`server: ${chunk.toString()}`); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`tasman exited with ${code}:\n${logs.join('\n')}`)); });
  });
  return {
    url, child, logs,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit') as [number | null];
      return code;
    },
  };
}
