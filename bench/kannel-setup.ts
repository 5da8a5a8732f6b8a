// Debian's Kannel (bearerbox + smsbox from the `kannel` package) for bench/kannel.ts: its configuration, written to
// a temporary directory, and its two processes. The configuration is the one docs/performance.md shows: spool
// store, HTTP sendsms → SMPP transceiver, window (max-pending-submits) 100, internal DLR storage, logs at warning.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Pool, request } from 'undici';
import type { CallbackReceiver, System } from './e2e.ts';

export const KANNEL_PORTS = { admin: 23000, smsbox: 23001, sendsms: 23013 };
export const KANNEL_PASSWORD = 'bench';

export function kannelConfig(dir: string, smscPort: number, users: string[]): string {
  const user = (name: string) => `group = sendsms-user
username = ${name}
password = ${KANNEL_PASSWORD}
max-messages = 10
concatenation = true
`;
  return `group = core
admin-port = ${KANNEL_PORTS.admin}
admin-password = ${KANNEL_PASSWORD}
admin-allow-ip = "127.0.0.1"
smsbox-port = ${KANNEL_PORTS.smsbox}
box-allow-ip = "127.0.0.1"
log-file = "${dir}/bearerbox.log"
log-level = 3
store-type = spool
store-location = "${dir}/spool"
dlr-storage = internal

group = smsc
smsc = smpp
smsc-id = sim
host = 127.0.0.1
port = ${smscPort}
transceiver-mode = true
smsc-username = kannel
smsc-password = kannel
system-type = "VMA"
max-pending-submits = 100
reconnect-delay = 1

group = smsbox
bearerbox-host = 127.0.0.1
sendsms-port = ${KANNEL_PORTS.sendsms}
log-file = "${dir}/smsbox.log"
log-level = 3

${users.map(user).join('\n')}`;
}

export interface Kannel { bearerbox: ChildProcess; smsbox: ChildProcess; stop(): Promise<void> }

/** Writes the configuration, starts bearerbox then smsbox, and resolves once the SMSC is bound and sendsms answers. */
export async function startKannel(dir: string, smscPort: number, users: string[]): Promise<Kannel> {
  mkdirSync(path.join(dir, 'spool'), { recursive: true });
  const conf = path.join(dir, 'kannel.conf');
  writeFileSync(conf, kannelConfig(dir, smscPort, users));
  const run = (bin: string) => {
    const child = spawn(bin, ['-v', '4', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (d: Buffer) => { if (/PANIC|ERROR/.test(d.toString())) process.stderr.write(`${path.basename(bin)}: ${d}`); });
    return child;
  };
  const bearerbox = run('/usr/sbin/bearerbox');
  await waitFor(async () => (await get(`http://127.0.0.1:${KANNEL_PORTS.admin}/status.txt?password=${KANNEL_PASSWORD}`)).includes('online'));
  const smsbox = run('/usr/sbin/smsbox');
  await waitFor(async () => (await get(`http://127.0.0.1:${KANNEL_PORTS.sendsms}/`)) !== '');
  const stopOne = (child: ChildProcess) => new Promise<void>((resolve) => {
    if (child.exitCode !== null) { resolve(); return; }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return { bearerbox, smsbox, stop: async () => { await stopOne(smsbox); await stopOne(bearerbox); } };
}

async function get(url: string): Promise<string> {
  try {
    const res = await request(url);
    return `${res.statusCode} ${await res.body.text()}`;
  } catch {
    return '';
  }
}

async function waitFor(ready: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > until) throw new Error('kannel did not come up (see its logs in the bench directory)');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Kannel as a System for bench/e2e.ts's rounds: GET /cgi-bin/sendsms as user `k<key>` (CONNECTIONS at a time),
 * dlr-mask 1 with a dlr-url on the receiver carrying the round's tag. `kannel()` is the current one (restarted
 * between rounds); its CPU is bearerbox's and smsbox's.
 */
export function kannelSystem(kannel: () => Kannel, receiver: () => CallbackReceiver, opts: { connections: number; recipient: () => string; text: string }) {
  const pool = new Pool(`http://127.0.0.1:${KANNEL_PORTS.sendsms}`, { connections: opts.connections });
  const system: System = {
    name: 'kannel', roots: () => [kannel().bearerbox.pid!, kannel().smsbox.pid!], backends: async () => [],
    async send(key, tag) {
      const q = new URLSearchParams({
        username: `k${key}`, password: KANNEL_PASSWORD, from: '61400000000', to: opts.recipient().slice(1), text: opts.text,
        'dlr-mask': '1', 'dlr-url': `${receiver().url}/k?i=${tag}&t=%d`,
      });
      const res = await pool.request({ method: 'GET', path: `/cgi-bin/sendsms?${q}` });
      const text = await res.body.text();
      if (res.statusCode !== 202) throw new Error(`kannel sendsms ${res.statusCode}: ${text}`);
      return tag;
    },
  };
  return { system, close: () => pool.close() };
}

/** bearerbox's status page (status.txt), '' when it does not answer. */
export async function kannelStatus(): Promise<string> {
  return (await get(`http://127.0.0.1:${KANNEL_PORTS.admin}/status.txt?password=${KANNEL_PASSWORD}`)).replace(/^\d+ /, '');
}
