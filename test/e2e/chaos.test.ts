// The whole promise under faults, as an operator's chaos test would try it: a real `tasman start` (an API process
// and a workers process under the primary) sends to an independent SMSC (the npm `smpp` server in its own process,
// which resends unacknowledged receipts on the next bind, as real SMSCs do) while senders keep sending with
// Idempotency-Keys and retries. At points drawn from a seed, the workers process is killed with SIGKILL, every
// database connection is reset (pg_terminate_backend), or both. Then: nothing acknowledged is lost or stored twice,
// credits are exact (the ledger walks to every balance_after), every message ends delivered with its webhook, no
// answer is a 5xx other than 503, and the submits sent twice are at most SMPP_WINDOW per bind per fault.
// CHAOS_SEED replays a run (the seed is printed); CHAOS_TRIALS sets the number of faults (docs/operations.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { startProcess, workersOf, type TasmanProcess } from '../support/process.ts';
import { createScratchDatabase, testDatabaseUrl } from '../support/scratch-db.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { npmSmscProcess, type SmscProcess } from '../support/smsc-process.ts';
import { pollUntil } from '../support/poll.ts';
import { CRASH_POLICY } from '../../src/platform/cluster/restart-policy.ts';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const TRIALS = Number(process.env.CHAOS_TRIALS ?? 3);
const WINDOW = 20;
const BINDS = 1;
const SENDERS = 4;
const ADMIN = 'chaos-test-admin';
const SETTLE_MS = 60_000;

/** mulberry32: a small PRNG, so a seed replays the same faults at the same points. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let receiver: Receiver;
let admin: pg.Client;
let dataDir: string;
let proc: TasmanProcess | null = null;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  scratch = await createScratchDatabase('tasman_chaos');
  receiver = await startReceiver();
  // On the server's maintenance database, so the resets never end this connection.
  admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-chaos-'));
});
afterAll(async () => {
  await proc?.stop('SIGKILL');
  for (const c of cleanups.reverse()) await c();
  await admin.end();
  await receiver.close();
  await scratch.drop();
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

/**
 * Waits until `count()` reaches `target` for as long as it keeps growing: a loaded machine is slow, a stalled
 * pipeline makes no progress for a minute.
 */
async function whileProgressing(count: () => number, target: number, what: string): Promise<void> {
  for (let seen = count(); seen < target;) {
    const before = seen;
    seen = await pollUntil(async () => count(), (n) => n >= target || n > before, `${what} (no progress for a minute at ${before})`, 60_000, 20);
  }
}

async function call(url: string, token: string, method: 'GET' | 'POST' | 'PUT', body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(url, {
    method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, json: (await res.body.json().catch(() => ({}))) as Record<string, unknown> };
}

describe('chaos: kill -9 of the workers process and connection resets at seeded points', () => {
  it('loses nothing acknowledged, charges exactly, ends every message with its webhook, and resends at most a window per fault', async () => {
    console.info(`chaos: CHAOS_SEED=${SEED} CHAOS_TRIALS=${TRIALS}`);
    const rnd = random(SEED);
    // The service's error lines, for the message of an assertion about 5xx answers.
    const errorLines: string[] = [];
    const smsc: SmscProcess = await npmSmscProcess((c) => cleanups.push(c), { SMSC_RESEND_RECEIPTS: '1' });
    const submits = () => smsc.lines.filter((l) => l.startsWith('SUBMIT ')).length;
    proc = await startProcess({
      DATABASE_URL: scratch.url, DATA_DIR: dataDir, TASMAN_ADMIN_TOKEN: ADMIN, TASMAN_WORKERS: '1', TASMAN_SIMULATOR: 'false',
      SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port), SMPP_WINDOW: String(WINDOW), SMPP_TPS: '100000',
      WEBHOOK_ALLOW_PRIVATE: 'true', RATE_LIMIT_RPS: '100000', RATE_LIMIT_CONCURRENCY: '10000',
    }, { startTimeoutMs: 180_000, onLine: (l) => { if (l.includes('"level":50') || l.includes('"status":500')) errorLines.push(l); } });
    const url = proc.url;
    const primary = proc.child.pid!;
    const created = await call(`${url}/admin/accounts`, ADMIN, 'POST', { business_name: 'Chaos', email: 'chaos@example.com', credits: 1_000_000 });
    expect(created.status).toBe(201);
    const key = created.json.api_key as string;
    const accountId = created.json.account_id as string;
    expect((await call(`${url}/webhooks/delivery`, key, 'PUT', { url: `${receiver.url}/dlr` })).status).toBe(200);

    // Senders: each message has its own Idempotency-Key and is retried with it until it is acknowledged.
    const acknowledged = new Map<string, string>();
    const statuses = new Map<string, number>();
    const count = (s: string) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    const serverErrors: string[] = [];
    let sending = true;
    let n = 0;
    const sender = async () => {
      while (sending) {
        const i = n++;
        const to = `+614${String(30_000_000 + i)}`;
        for (;;) {
          const res = await call(`${url}/send`, key, 'POST', { to, message: `Chaos ${i}` }, { 'idempotency-key': `chaos-${SEED}-${i}` })
            .catch(() => ({ status: 0, json: {} as Record<string, unknown> }));
          count(String(res.status));
          if (res.status >= 500 && res.status !== 503) serverErrors.push(JSON.stringify(res.json));
          if (res.status === 200) { acknowledged.set(res.json.message_id as string, to); break; }
          if (res.status >= 400 && res.status < 500 && res.status !== 409 && res.status !== 429) throw new Error(`/send answered ${res.status}: ${JSON.stringify(res.json)}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    };
    const senders = Array.from({ length: SENDERS }, () => sender());

    const faults: string[] = [];
    let kills = 0;
    const killedAt: number[] = [];
    let resets = 0;
    const resetAll = async () => (await admin.query<{ n: number }>(
      'select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [new URL(scratch.url).pathname.slice(1)])).rows[0]!.n;
    // A stalled trial says what the service logged last (faults so far, then the process's lines).
    const withLogs = (err: Error): never => { throw new Error(`${err.message}\nfaults: ${faults.join(' ')}\n${proc!.logs.slice(-60).join('\n')}`); };
    for (let t = 0; t < TRIALS; t++) {
      // The fault's point: after a drawn number of further submits reached the SMSC (mid-window, mid-write).
      const at = submits() + 30 + Math.floor(rnd() * 300);
      let kind = rnd() < 0.5 ? 'kill' : rnd() < 0.6 ? 'reset' : 'both';
      // The primary stops the whole service after more than CRASH_POLICY.limit crashes a minute (a fault a restart
      // will not fix): a kill beyond that becomes a reset, so a long run tries the pipeline, not that policy.
      if (kind !== 'reset' && killedAt.filter((k) => Date.now() - k < CRASH_POLICY.windowMs).length >= CRASH_POLICY.limit - 1) kind = 'reset';
      await whileProgressing(submits, at, `trial ${t}: ${at} submits`).catch(withLogs);
      const workers = workersOf(primary);
      expect(workers).toBeDefined();
      if (kind !== 'reset') { process.kill(workers!, 'SIGKILL'); kills++; killedAt.push(Date.now()); }
      if (kind !== 'kill') { await resetAll(); resets++; }
      faults.push(`${kind}@${at}`);
      if (kind !== 'reset') await pollUntil(async () => workersOf(primary), (p) => p !== undefined && p !== workers, `trial ${t}: a new workers process`, 60_000).catch(withLogs);
    }
    // Accepting again after the last fault, then the senders stop (each after its message is acknowledged).
    const before = acknowledged.size;
    await whileProgressing(() => acknowledged.size, before + 40, 'sends acknowledged after the last fault').catch(withLogs);
    sending = false;
    await Promise.all(senders);
    const lastFault = Date.now();

    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    cleanups.push(() => db.end());
    const ids = [...acknowledged.keys()];
    const pending = async () => {
      const r = await db.query<{ n: number }>(`select count(*)::int as n from messages where id = any($1::uuid[]) and status <> 'delivered'`, [ids]);
      const hooked = new Set(receiver.requests.map((q) => (JSON.parse(q.body) as { message?: { id?: string } }).message?.id));
      return { undelivered: r.rows[0]!.n, noWebhook: ids.filter((id) => !hooked.has(id)).length };
    };
    const summary = () => ({ seed: SEED, faults, acknowledged: ids.length, submits: submits(), statuses: Object.fromEntries(statuses) });
    // Settled when nothing is left; a failure only when nothing moves for SETTLE_MS (a loaded machine is slow, not wrong).
    let left: Error | undefined;
    for (let last = await pending(); last.undelivered + last.noWebhook > 0;) {
      const before = last.undelivered + last.noWebhook;
      const next = await pollUntil(pending, (p) => p.undelivered + p.noWebhook < before, 'every acknowledged message delivered with its webhook',
        SETTLE_MS, 250).catch((err: Error) => err);
      if (next instanceof Error) { left = next; break; }
      last = next;
    }
    if (left) {
      const stuck = await db.query(`select status, lease_until > now() as leased, next_attempt_at > now() as later, attempts, smsc_message_id is not null as has_smsc_id, count(*)::int as n
        from messages where id = any($1::uuid[]) and status <> 'delivered' group by 1, 2, 3, 4, 5`, [ids]).then((r) => r.rows, (err: Error) => err.message);
      throw new Error(`${left.message} ${JSON.stringify(await pending())} after ${Date.now() - lastFault} ms\n${JSON.stringify(summary())}\nstuck: ${JSON.stringify(stuck)}\n${proc.logs.slice(-30).join('\n')}`);
    }

    // Nothing acknowledged lost, nothing stored twice: one message per acknowledged key, each one acknowledged.
    const stored = (await db.query<{ id: string; recipient: string }>('select id, recipient from messages where account_id = $1', [accountId])).rows;
    expect(stored.length).toBe(ids.length);
    expect(stored.every((m) => acknowledged.get(m.id) === m.recipient)).toBe(true);
    // Credits exact: one per message, no refund, the ledger walks to every balance_after and to the balance.
    const ledger = (await db.query<{ kind: string; delta: number; balance_after: number }>(
      'select kind, delta, balance_after from credit_ledger where account_id = $1 order by seq', [accountId])).rows;
    expect(ledger.filter((r) => r.kind === 'refund')).toEqual([]);
    let running = 0;
    for (const row of ledger) {
      running += row.delta;
      expect(row.balance_after).toBe(running);
    }
    const balance = (await db.query<{ credits: number }>('select credits from accounts where id = $1', [accountId])).rows[0]!.credits;
    expect(running).toBe(balance);
    expect(balance).toBe(1_000_000 - ids.length);
    // Every message reached the SMSC; those sent twice are within a window per bind per fault.
    const perRecipient = new Map<string, number>();
    for (const l of smsc.lines) if (l.startsWith('SUBMIT ')) { const to = l.split(' ')[1]!; perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1); }
    expect([...acknowledged.values()].every((to) => perRecipient.has(to.slice(1)))).toBe(true);
    const duplicates = [...perRecipient.values()].reduce((d, c) => d + c - 1, 0);
    // 5xx: only 503 (a request that met a reset), and its retry with the same key was answered.
    const fiveHundreds = [...statuses.keys()].filter((s) => s.startsWith('5') && s !== '503');
    console.info(`chaos: ${JSON.stringify({ ...summary(), kills, resets, duplicates, bound: WINDOW * BINDS * (kills + resets) })}`);
    expect(fiveHundreds, `${serverErrors.join('\n')}\n${errorLines.join('\n')}`).toEqual([]);
    expect(duplicates).toBeLessThanOrEqual(WINDOW * BINDS * (kills + resets));
    expect(proc.child.exitCode).toBeNull();
  }, 300_000 + TRIALS * 60_000);
});
