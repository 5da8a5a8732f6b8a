// A crashed worker costs at most its in-flight window. A real `tasman start` sends to an SMSC that
// counts accepted submits per recipient and sends receipts; batches keep arriving while it is killed with SIGKILL
// mid-stream, then it is started again on the same database. Every accepted message must end delivered, the
// credits must add up (nothing lost, nothing charged twice), and the only submits sent twice are the ones the SMSC
// had accepted but the dead process had not yet recorded: at most SMPP_WINDOW for its one bind, since an accepted
// submit keeps its window slot until its `sent` write commits (decision 0067), each sent at most twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { pollUntil } from '../support/poll.ts';
import { startProcess, type TasmanProcess } from '../support/process.ts';
import { createScratchDatabase } from '../support/scratch-db.ts';
import { startReceiptSmsc, type ReceiptSmsc } from '../support/receipt-smsc.ts';

const ADMIN = 'kill-test-admin';
const WINDOW = 20;
const BATCH = 250;
const KILL_AT = 1_000; // accepted submits
const MAX_MESSAGES = 3_000; // batches stop here if the kill has not come yet: enough to be mid-stream, quick to finish

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let smsc: ReceiptSmsc;
let pool: pg.Pool;
let dataDir: string;
const procs: TasmanProcess[] = [];

beforeAll(async () => {
  scratch = await createScratchDatabase('tasman_kill');
  smsc = await startReceiptSmsc({ window: 100 });
  pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-kill-'));
});
afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL');
  await pool.end();
  await smsc.stop();
  await scratch.drop();
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

const start = async () => {
  const p = await startProcess({
    DATABASE_URL: scratch.url, DATA_DIR: dataDir, TASMAN_ADMIN_TOKEN: ADMIN, TASMAN_SIMULATOR: 'false',
    SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port), SMPP_WINDOW: String(WINDOW), SMPP_TPS: '100000',
    RATE_LIMIT_RPS: '100000', RATE_LIMIT_CONCURRENCY: '10000'
  });
  procs.push(p);
  return p;
};

async function call(url: string, token: string, method: 'GET' | 'POST', body?: unknown) {
  const res = await request(url, {
    method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

const one = async <T>(q: string, params: unknown[] = []) => (await pool.query(q, params)).rows[0] as T;

describe('kill -9 of a real tasman start under load', () => {
  it('loses nothing, charges once, and resends only what the SMSC accepted but the dead process had not recorded', async () => {
    const first = await start();
    const created = await call(`${first.url}/admin/accounts`, ADMIN, 'POST', { business_name: 'Kill Test', email: 'kill@example.com', credits: 100_000 });
    expect(created.status).toBe(201);
    const key = created.json.api_key as string;
    const accountId = created.json.account_id as string;

    // Batches keep coming until the kill; a request cut off by it may or may not have been committed, so the
    // database says what was accepted, and every batch answered 200 must be in it.
    let n = 0;
    const answered: Array<{ campaign: string; queued: number }> = [];
    let killed = false;
    const sender = (async () => {
      while (!killed && n < MAX_MESSAGES) {
        const recipients = Array.from({ length: BATCH }, () => `+614${String(10_000_000 + n++)}`);
        const res = await call(`${first.url}/send-batch`, key, 'POST', { message: 'Kill test {{name}}', recipients: recipients.map((phone) => ({ phone, merge_data: { name: phone } })) })
          .catch(() => null);
        if (res?.status === 200) answered.push({ campaign: res.json.campaign_id as string, queued: res.json.recipients_queued as number });
      }
    })();
    await pollUntil(() => smsc.acceptedTotal(), (n) => n >= KILL_AT, `${KILL_AT} submits at the SMSC`, 120_000, 5)
      .catch((err: Error) => { throw new Error(`${err.message}\n${first.logs.join('\n')}`); });
    await first.stop('SIGKILL');
    killed = true;
    await sender;
    // Submits the dead process wrote before dying are still read by the SMSC (and accepted) until its socket ends.
    await pollUntil(() => smsc.bound(), (n) => n === 0, 'the dead process\'s binds closed', 60_000, 5);
    const acceptedAtKill = new Map(smsc.accepted);
    const recordedAtKill = new Set((await pool.query<{ recipient: string }>(
      `select recipient from messages where account_id = $1 and smsc_message_id is not null`, [accountId])).rows.map((r) => r.recipient.slice(1)));
    // Accepted by the SMSC, never recorded: the at-least-once window the crash may resend.
    const unrecorded = [...acceptedAtKill.keys()].filter((d) => !recordedAtKill.has(d)).length;
    expect(unrecorded).toBeLessThanOrEqual(WINDOW);

    await start();
    const total = Number((await one<{ n: string }>(`select count(*) as n from messages where account_id = $1`, [accountId])).n);
    expect(total).toBeGreaterThanOrEqual(KILL_AT);
    await pollUntil(async () => Number((await one<{ n: string }>(`select count(*) as n from messages where account_id = $1 and status <> 'delivered'`, [accountId])).n),
      (left) => left === 0, `all ${total} messages delivered after the restart`, 120_000, 200);

    // Every batch answered 200 is there, whole.
    for (const b of answered) {
      expect(Number((await one<{ n: string }>(`select count(*) as n from messages where campaign_id = $1`, [b.campaign])).n)).toBe(b.queued);
    }
    // Credits: charged once per message, nothing refunded, the ledger walks to the balance.
    const charged = Number((await one<{ s: string }>(`select sum(credits) as s from messages where account_id = $1`, [accountId])).s);
    expect(charged).toBe(total);
    const balance = (await one<{ credits: number }>(`select credits from accounts where id = $1`, [accountId])).credits;
    expect(balance).toBe(100_000 - total);
    const ledger = (await pool.query<{ kind: string; delta: number; balance_after: number }>(
      `select kind, delta, balance_after from credit_ledger where account_id = $1 order by seq`, [accountId])).rows;
    expect(ledger.filter((r) => r.kind === 'refund')).toEqual([]);
    let running = 0;
    for (const row of ledger) {
      running += row.delta;
      expect(row.balance_after).toBe(running);
    }
    expect(running).toBe(balance);

    // Duplicates: exactly the accepted-but-unrecorded ones, each sent twice; every message reached the SMSC.
    const counts = [...smsc.accepted.values()];
    expect(smsc.accepted.size).toBe(total);
    expect(Math.max(...counts)).toBeLessThanOrEqual(2);
    const duplicated = counts.filter((c) => c === 2).length;
    expect(duplicated).toBe(unrecorded);
    console.info(`kill -9 test: ${total} messages, ${acceptedAtKill.size} accepted at the kill, ${unrecorded} unrecorded, ${duplicated} sent twice`);
  }, 300_000);
});
