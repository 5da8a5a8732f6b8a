// Every database connection of real `tasman start` processes is reset, three times 2.5 s apart, while ten senders
// keep sending (what a managed-PostgreSQL failover, a pgbouncer restart or an idle-connection reaper does). No
// process may exit, every acknowledged message must end `delivered` with its webhook within 30 s of the last
// reset, and the only 5xx allowed is 503. A handler that only swallowed the connection errors would leave claims,
// batched writes and receipts stranded, and fail the 30 s bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { startProcess, type TasmanProcess } from '../support/process.ts';
import { createScratchDatabase, testDatabaseUrl } from '../support/scratch-db.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { pollUntil } from '../support/poll.ts';

const ADMIN = 'reset-test-admin';
const SENDERS = 10;
const RESETS = 3;
const RESET_EVERY_MS = 2_500;
const SETTLE_MS = 30_000;

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let receiver: Receiver;
let admin: pg.Client;
let dataDir: string;
let proc: TasmanProcess | null = null;

beforeAll(async () => {
  scratch = await createScratchDatabase('tasman_reset');
  receiver = await startReceiver();
  // On the server's maintenance database, so the resets never end this connection.
  admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-reset-'));
});
afterAll(async () => {
  await proc?.stop('SIGKILL');
  await admin.end();
  await receiver.close();
  await scratch.drop();
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

async function call(url: string, token: string, method: 'GET' | 'POST' | 'PUT', body?: unknown) {
  const res = await request(url, {
    method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

const dbName = () => new URL(scratch.url).pathname.slice(1);

/** Ends every backend of the scratch database; the count it ended. */
async function resetAll(): Promise<number> {
  const r = await admin.query<{ n: number }>(
    'select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [dbName()]);
  return r.rows[0]!.n;
}

describe('database connections reset under load', () => {
  it('keeps every process running, loses nothing acknowledged, and answers 503 at worst', async () => {
    // Every error line, and every line on stderr (where an unhandled 'error' event is printed before the exit).
    const errors: string[] = [];
    proc = await startProcess({
      DATABASE_URL: scratch.url, DATA_DIR: dataDir, TASMAN_ADMIN_TOKEN: ADMIN, TASMAN_WORKERS: '1',
      WEBHOOK_ALLOW_PRIVATE: 'true', RATE_LIMIT_RPS: '100000', RATE_LIMIT_CONCURRENCY: '10000', SIM_DLR_DELAY_MS: '200',
    }, { onLine: (line) => { if (/"level":(50|60)/.test(line)) errors.push(line); } });
    proc.child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
    // The supervisor starts another child when one exits: its log line is how an exit shows.
    const exits = () => errors.filter((l) => /process exited|process failed|Unhandled|uncaught/i.test(l));
    const created = await call(`${proc.url}/admin/accounts`, ADMIN, 'POST', { business_name: 'Reset Test', email: 'reset@example.com', credits: 1_000_000 });
    expect(created.status).toBe(201);
    const key = created.json.api_key as string;
    expect((await call(`${proc.url}/webhooks/delivery`, key, 'PUT', { url: `${receiver.url}/dlr` })).status).toBe(200);

    const acknowledged = new Set<string>();
    const statuses = new Map<string, number>();
    const count = (what: string) => statuses.set(what, (statuses.get(what) ?? 0) + 1);
    let sending = true;
    let n = 0;
    // The simulator refuses, drops or fails numbers ending 996 to 999: none of those, so every message can deliver.
    const nextRecipient = () => {
      let v: number;
      do v = 20_000_000 + n++; while (v % 1000 >= 996);
      return `+614${v}`;
    };
    const sender = async () => {
      while (sending) {
        const to = nextRecipient();
        const res = await call(`${proc!.url}/send`, key, 'POST', { to, message: `Reset test ${to}` })
          .catch((err: Error) => ({ status: 0, json: { error: err.message } as Record<string, unknown> }));
        count(res.status === 0 ? `network: ${String(res.json.error)}` : String(res.status));
        if (res.status === 200) acknowledged.add(res.json.message_id as string);
      }
    };
    const senders = Array.from({ length: SENDERS }, () => sender());

    // Load first, so the resets find claims, batches, receipts and webhook attempts in flight.
    await pollUntil(async () => acknowledged.size, (s) => s >= 200, 'the first 200 acknowledged sends', 60_000);
    // The LISTEN sessions (named by what they listen to): each process's must come back after the resets.
    const listening = async () => (await admin.query<{ name: string }>(
      `select application_name as name from pg_stat_activity where datname = $1 and application_name like 'tasman listen %' order by 1`, [dbName()])).rows.map((r) => r.name);
    const listenersBefore = await listening();
    expect(listenersBefore.length).toBeGreaterThan(0);
    const ended: number[] = [];
    for (let i = 0; i < RESETS; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, RESET_EVERY_MS));
      ended.push(await resetAll());
    }
    const lastReset = Date.now();
    // A little load after the last reset too: the service must be accepting again.
    const before = acknowledged.size;
    await pollUntil(async () => acknowledged.size, (s) => s >= before + 50, 'sends accepted after the last reset', SETTLE_MS);
    sending = false;
    await Promise.all(senders);

    await pollUntil(listening, (l) => JSON.stringify(l) === JSON.stringify(listenersBefore), 'every LISTEN session back', SETTLE_MS);
    const ids = [...acknowledged];
    const pending = async () => {
      const c = new pg.Client({ connectionString: scratch.url });
      await c.connect();
      try {
        const r = await c.query<{ n: number }>(`select count(*)::int as n from messages where id = any($1::uuid[]) and status <> 'delivered'`, [ids]);
        const hooked = new Set(receiver.requests.map((q) => (JSON.parse(q.body) as { message?: { id?: string } }).message?.id));
        return { undelivered: r.rows[0]!.n, noWebhook: ids.filter((id) => !hooked.has(id)).length };
      } finally {
        await c.end();
      }
    };
    const left = await pollUntil(pending, (p) => p.undelivered === 0 && p.noWebhook === 0, 'every acknowledged message delivered with its webhook',
      Math.max(1_000, lastReset + SETTLE_MS - Date.now()), 250).catch((err: Error) => err);
    const summary = { acknowledged: ids.length, ended, statuses: Object.fromEntries(statuses), exits: exits().length };
    console.info(`connection resets: ${JSON.stringify(summary)}`);
    if (left instanceof Error) throw new Error(`${left.message}\n${JSON.stringify(summary)}\n${errors.slice(-40).join('\n')}`);

    expect(ended.every((e) => e > 0)).toBe(true);
    expect(exits()).toEqual([]);
    expect(proc.child.exitCode).toBeNull();
    const bad = [...statuses.keys()].filter((s) => s !== '200' && s !== '503');
    expect(bad).toEqual([]);
  }, 240_000);
});
