// The stack's floor as a System for bench/e2e.ts's rounds (bench/floor-server.ts: a durable /send with a delivery
// callback and nothing else), on its own database so that its PostgreSQL backends are counted apart from Tasman's.
// bench/kannel.ts runs it as a third system with BENCH_FLOOR=1 (accept and callback), or BENCH_FLOOR=smpp (with
// the SMPP leg and one status write per receipt, against the simulator Tasman and Kannel use).
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { backendsOf, type CallbackReceiver, type System } from './e2e.ts';

export async function startFloor(databaseUrl: string, receiver: CallbackReceiver, opts: { connections: number; recipient: () => string; text: string; smscPort?: number }) {
  const url = new URL(databaseUrl);
  const name = `${url.pathname.slice(1)}_floor`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  url.pathname = `/${name}`;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'floor-server.ts')], {
    env: { ...process.env, DATABASE_URL: url.toString(), FLOOR_CALLBACK_URL: receiver.url, ...(opts.smscPort ? { FLOOR_SMPP: `127.0.0.1:${opts.smscPort}` } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const serverUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`floor-server exited ${code}`)));
    let buffer = '';
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString();
      const match = /"floor started","url":"([^"]+)"/.exec(buffer);
      if (match) resolve(match[1]!);
    });
  });
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const pool = new Pool(serverUrl, { connections: opts.connections });
  const system: System = {
    name: 'floor', roots: () => [child.pid!],
    backends: backendsOf(db),
    // Between rounds, as Tasman's database is: the table only grows.
    beforeRound: () => db.query('vacuum (analyze) floor_messages'),
    async send(key) {
      const res = await pool.request({
        method: 'POST', path: '/send', body: JSON.stringify({ to: opts.recipient(), message: opts.text }),
        headers: { authorization: `Bearer k${key}`, 'content-type': 'application/json' },
      });
      const body = await res.body.json() as { message_id?: string };
      if (res.statusCode !== 200 || !body.message_id) throw new Error(`floor /send ${res.statusCode}: ${JSON.stringify(body)}`);
      return body.message_id;
    },
  };
  return {
    system,
    close: async () => { await pool.close(); await db.end(); child.kill('SIGTERM'); },
  };
}
