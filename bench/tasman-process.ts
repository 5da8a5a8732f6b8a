// `tasman start` in a child process for the benchmarks: test/support/process.ts with profiling flags and the
// server's errors echoed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { request } from 'undici';
import { startProcess, type TasmanProcess } from '../test/support/process.ts';

export type BenchProcess = TasmanProcess;

/** BENCH_CPU_PROF=<dir>: the server writes a .cpuprofile there when it stops (summarise with bench/profile.ts). */
export function profileFlags(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return [];
  mkdirSync(path.resolve(dir), { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`];
}

/**
 * Benchmarks without SMPP_HOST mean the built-in simulator, on whatever database: TASMAN_SIMULATOR says so, since
 * `tasman start` refuses DATABASE_URL without a carrier otherwise.
 */
export function startTasmanProcess(env: Record<string, string>, nodeArgs: string[] = profileFlags(), bin?: string): Promise<BenchProcess> {
  return startProcess({ TASMAN_SIMULATOR: 'true', ...env }, { nodeArgs, echoErrors: true, ...(bin ? { bin } : {}) });
}

/** One JSON request to the server under test. */
export async function call(method: string, url: string, token: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await request(url, {
    method: method as 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

/** Distinct Australian mobiles the simulator delivers: it treats …996–999 as refused, silent or failing. */
export function deliverableRecipients(): () => string {
  let n = 0;
  return () => {
    let v: number;
    do v = 10_000_000 + (n++ % 89_999_999); while (v % 1000 >= 996);
    return `+614${v}`;
  };
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

/** `tasman simulator` in its own process (receipts at once), as an SMSC elsewhere would be; resolves with its SMPP port. */
export async function startSimulatorProcess(env: Record<string, string> = {}): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', 'bin', 'tasman.js'), 'simulator'], {
    env: { ...process.env, SIM_PORT: '0', SIM_CONTROL_PORT: '0', SIM_DLR_DELAY_MS: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) => {
    let buffer = '';
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString();
      const match = /"smpp":"127\.0\.0\.1:(\d+)"/.exec(buffer);
      if (match) resolve(Number(match[1]));
    });
  });
  return { port, child };
}

/**
 * A POST /send load for `seconds` with autocannon, each request on the next of `keys` in turn (so many accounts
 * share the load) to the next of `recipient()`: the one `/send` load of ab.ts, embedded.ts and workers.ts.
 */
export function sendLoad(url: string, keys: string[], opts: { seconds: number; connections?: number; recipient: () => string }): Promise<autocannon.Result> {
  let n = 0;
  return new Promise((resolve, reject) => autocannon({
    url: `${url}/send`, connections: opts.connections ?? 50, duration: opts.seconds, method: 'POST',
    requests: [{
      setupRequest: (req) => ({
        ...req,
        headers: { authorization: `Bearer ${keys[n++ % keys.length]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: opts.recipient(), message: 'Your order has shipped' }),
      }),
    }],
  }, (err, result) => (err ? reject(err) : resolve(result))));
}
