// A crash between parking a receipt and applying it, with a real kill -9. The SMSC (the npm `smpp` server in its own
// process) sends a message's DELIVRD receipt before, and instead of, its submit_sm_resp: the workers process of a
// real `tasman start` parks it (committed, then acknowledged) and is killed with SIGKILL before anything can apply
// it. Its lease lapses, the new workers process sends the message again under a new id, and the SMSC sends no
// receipt for that copy: the message ends delivered, with its webhook, only because recording the resend settles
// the first copy's parked receipt (decision 0060).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { startProcess, workersOf, type TasmanProcess } from '../support/process.ts';
import { createScratchDatabase } from '../support/scratch-db.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { npmSmscProcess } from '../support/smsc-process.ts';
import { pollUntil } from '../support/poll.ts';

const ADMIN = 'parked-crash-admin';

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let receiver: Receiver;
let db: pg.Client;
let dataDir: string;
let proc: TasmanProcess | null = null;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  scratch = await createScratchDatabase('tasman_parked_crash');
  receiver = await startReceiver();
  db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-parked-crash-'));
});
afterAll(async () => {
  await proc?.stop('SIGKILL');
  for (const c of cleanups.reverse()) await c();
  await db.end();
  await receiver.close();
  await scratch.drop();
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

async function call(url: string, token: string, method: 'POST' | 'PUT', body: unknown) {
  const res = await request(url, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

describe('a crash between parking a receipt and applying it', () => {
  it('ends the message delivered with its webhook after kill -9 of the workers process', async () => {
    const smsc = await npmSmscProcess((c) => cleanups.push(c), { SMSC_HOLD_FIRST: '1', SMSC_RECEIPTS: '0' });
    proc = await startProcess({
      DATABASE_URL: scratch.url, DATA_DIR: dataDir, TASMAN_ADMIN_TOKEN: ADMIN, TASMAN_WORKERS: '1', TASMAN_SIMULATOR: 'false',
      SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port), WEBHOOK_ALLOW_PRIVATE: 'true',
    }, { startTimeoutMs: 180_000 });
    const primary = proc.child.pid!;
    const created = await call(`${proc.url}/admin/accounts`, ADMIN, 'POST', { business_name: 'Parked', email: 'parked@example.com', credits: 10 });
    expect(created.status).toBe(201);
    const key = created.json.api_key as string;
    expect((await call(`${proc.url}/webhooks/delivery`, key, 'PUT', { url: `${receiver.url}/dlr` })).status).toBe(200);
    const sent = await call(`${proc.url}/send`, key, 'POST', { to: '+61412000111', message: 'parked then crashed' });
    expect(sent.status).toBe(200);
    const id = sent.json.message_id as string;

    // The receipt is parked and acknowledged (after its commit); the submit is never answered.
    const line = await pollUntil(async () => smsc.lines.find((l) => l.startsWith('RECEIPTED ')), Boolean, 'the receipt acknowledged', 60_000);
    expect(line!.split(' ')[2]).toBe('0');
    const firstId = line!.split(' ')[1]!;
    const parked = await db.query('select recipient from pending_receipts');
    expect(parked.rows).toEqual([{ recipient: '12000111' }]); // the handset's key: its last eight digits
    expect((await db.query<{ status: string }>('select status from messages where id = $1', [id])).rows[0]!.status).toBe('queued');

    const workers = workersOf(primary);
    expect(workers).toBeDefined();
    process.kill(workers!, 'SIGKILL');

    // The lease lapses, the message goes again under a new id (no receipt comes for it), and the first copy's
    // parked receipt is applied in the transaction that records it.
    const final = await pollUntil(async () => (await db.query<{ status: string; smsc_message_id: string | null }>(
      'select status, smsc_message_id from messages where id = $1', [id])).rows[0]!, (m) => m.status === 'delivered' || m.status === 'failed',
    'the resent message final', 90_000, 250);
    expect(final.status).toBe('delivered');
    expect(final.smsc_message_id).not.toBe(firstId.toLowerCase());
    expect(smsc.lines.filter((l) => l.startsWith('SUBMIT '))).toHaveLength(2);
    expect((await db.query('select 1 from pending_receipts')).rows).toEqual([]);
    const hooks = await receiver.waitFor(1, 30_000);
    expect((JSON.parse(hooks[0]!.body) as { message: { id: string; status: string } }).message).toMatchObject({ id, status: 'delivered' });
    expect(proc.child.exitCode).toBeNull();
  }, 240_000);
});
