import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

const bin = fileURLToPath(new URL('../../bin/tasman.js', import.meta.url));

export interface TasmanProcess {
  /** The API's address; empty for a process without the API role. */
  url: string;
  child: ChildProcess;
  /** The last 200 lines it wrote. */
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  /** Flags for node itself (for example --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
  /** Copy the server's errors and stderr to ours (benchmarks, where nobody reads `logs`). */
  echoErrors?: boolean;
  /** Every line it writes to stdout, as it comes (logs keeps only the last 200). */
  onLine?: (line: string) => void;
  /** Another checkout's bin/tasman.js (benchmarks comparing two builds). */
  bin?: string;
  /** How long to wait for the banner; default 120 s. */
  startTimeoutMs?: number;
  /** The working directory (the default DATA_DIR, ./data, is inside it); default ours. */
  cwd?: string;
}

/** A TCP port free on 127.0.0.1 at the moment of asking, for a server whose own links must name its port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `tasman start` as a real child process and resolves once it logs that it started. */
export async function startProcess(env: Record<string, string>, options: StartOptions = {}): Promise<TasmanProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.bin ?? bin, 'start'], {
    // One process unless asked (TASMAN_WORKERS): the cluster has its own tests, and four processes per test
    // would slow every other one on a two-core machine.
    env: {
      ...process.env, PORT: '0', SIM_PORT: '0', SIM_CONTROL_PORT: '0', LOG_LEVEL: 'info', LOG_FORMAT: 'json', TASMAN_SIMULATOR: 'true',
      TASMAN_WORKERS: process.env.TASMAN_WORKERS ?? '0', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const logs: string[] = [];
  const keep = (line: string) => {
    logs.push(line);
    if (logs.length > 200) logs.shift();
  };
  // Generous: a first start runs initdb, which takes many seconds on a loaded two-core machine (seen: 45 s not enough).
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: a half-started tasman holds ports and an embedded server.
      child.kill('SIGTERM');
      reject(new Error(`tasman did not start:\n${logs.join('\n')}`));
    }, options.startTimeoutMs ?? 120_000);
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        keep(line);
        options.onLine?.(line);
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string; level?: number };
          if (entry.msg === 'tasman started') { clearTimeout(timer); resolve(entry.url ?? ''); }
          if (options.echoErrors && (entry.level ?? 0) >= 50) process.stderr.write(`server: ${line}\n`);
        } catch { /* not JSON */ }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      keep(chunk.toString());
      if (options.echoErrors) process.stderr.write(`server: ${chunk.toString()}`);
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`tasman exited with ${code}:\n${logs.join('\n')}`)); });
  });
  return {
    url, child, logs,
    async stop(signal = 'SIGTERM') {
      // A child ended by a signal has signalCode set and exitCode null: it will never emit 'exit' again.
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await once(child, 'exit') as [number | null];
      return code;
    },
  };
}

/** The workers child of the primary (its TASMAN_ROLES), or undefined while there is none. */
export function workersOf(primary: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== primary) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes('TASMAN_ROLES=workers')) return Number(entry);
    } catch { /* exited while we looked */ }
  }
  return undefined;
}

/** One JSON request to a started process, on a connection of its own (none outlives a stopped process). */
export async function httpJson(method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(url, {
    method: method as 'GET', reset: true,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}
