// Exactly-once release of scheduled messages by two real `tasman start` processes on one PostgreSQL database.
// Both run the scheduler and the dispatcher, and both bind to one SMSC that this test runs (the
// npm `smpp` package's server, independent of ours), so the SMSC sees every submit_sm either process makes: each
// message must arrive exactly once, and the two schedulers' own counts must add up to the number released.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { startProcess, type TasmanProcess } from '../support/process.ts';
import { startNpmSmsc, type NpmSmsc } from '../carrier/npm-smsc.ts';
import { pollUntil } from '../support/poll.ts';

const MESSAGES = 3000;
// Due times spread over this long, so both processes' once-a-second schedulers find due rows many times over.
const SPREAD_MS = 9000;

let t: TestApp;
let smsc: NpmSmsc;
const processes: TasmanProcess[] = [];
const dirs: string[] = [];
const released = [0, 0];

beforeAll(async () => {
  // A database of its own: the processes' schedulers and dispatchers take every due row they can see.
  t = await createTestApp({}, { ownDatabase: true });
  smsc = await startNpmSmsc();
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await smsc?.stop();
  await t?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 120_000);

const waitFor = (what: string, done: () => Promise<boolean> | boolean, deadlineMs: number): Promise<boolean> =>
  pollUntil(done, Boolean, what, deadlineMs, 200);

describe('two tasman processes releasing scheduled messages', () => {
  it(`each of ${MESSAGES} messages falling due over ${SPREAD_MS / 1000} s is released once and submitted once`, async () => {
    const a = await createAccount(t.app, { credits: MESSAGES });
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    for (let sent = 0; sent < MESSAGES; sent += 1000) {
      const res = await call(t.app, a.apiKey, 'POST', '/send-batch', {
        recipients: Array.from({ length: Math.min(1000, MESSAGES - sent) }, () => mobile()), message: 'due soon', send_at: inAnHour,
      });
      expect(res.status).toBe(200);
    }

    for (const i of [0, 1]) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-release-'));
      dirs.push(dataDir);
      processes.push(await startProcess({
        DATABASE_URL: t.config.databaseUrl!, DATA_DIR: dataDir, SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port),
      }, {
        onLine: (line) => {
          if (!line.includes('released scheduled messages')) return;
          released[i]! += (JSON.parse(line) as { released: number }).released;
        },
      }));
    }
    await waitFor('both processes to bind', () => smsc.binds.length >= 2, 60_000);

    // From now on, one message falls due every few milliseconds, in id order.
    await t.services.db.execute(sql`
      update messages m set scheduled_at = now() + make_interval(secs => o.n * ${SPREAD_MS / 1000}::float8 / ${MESSAGES})
      from (select id, row_number() over (order by id) as n from messages where account_id = ${a.accountId}) o
      where m.id = o.id`);

    const remaining = async () => (await rows<{ left: number }>(t.services.db, sql`
      select count(*)::int as left from messages where account_id = ${a.accountId} and status in ('scheduled', 'queued', 'sending')`))[0]!.left;
    await waitFor('every message to be submitted', async () => (await remaining()) === 0 && smsc.submits.length >= MESSAGES, 180_000);
    // Stopping drains each process's dispatcher: any duplicate it had claimed would reach the SMSC before exit.
    await Promise.all(processes.map((p) => p.stop()));

    const destinations = smsc.submits.map((s) => String(s.pdu.destination_addr));
    expect(destinations).toHaveLength(MESSAGES);
    expect(new Set(destinations).size).toBe(MESSAGES);
    const ours = await rows<{ recipient: string; status: string }>(t.services.db, sql`select recipient, status from messages where account_id = ${a.accountId}`);
    expect(new Set(ours.map((m) => m.recipient.replace(/^\+/, '')))).toEqual(new Set(destinations.map((d) => d.replace(/^\+/, ''))));
    expect(ours.every((m) => m.status === 'sent')).toBe(true);
    // Each scheduler counted only what it changed: together, every message once; and both took part.
    expect(released[0]! + released[1]!).toBe(MESSAGES);
    expect(released[0]).toBeGreaterThan(0);
    expect(released[1]).toBeGreaterThan(0);
  }, 300_000);
});
