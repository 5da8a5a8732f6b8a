// Failover between carriers whose SMSCs are processes of their own: one is killed with SIGKILL while
// 2,000 messages go out and restarted on its port; one refuses everything with ESME_RSYSERR for longer than its
// failover_after_seconds and then recovers. And `tasman simulator` with SIM_CARRIERS=2 serves two carriers at once.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { rows } from '../../src/platform/db/client.ts';
import { pollUntil } from '../support/poll.ts';
import { npmSmscProcess, simulatorProcess } from '../support/smsc-process.ts';
import { normaliseMessageId } from '../../src/carrier/smpp/receipt.ts';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const register = (c: () => Promise<unknown>) => { cleanups.push(c); };
const npmSmsc = (env: Record<string, string> = {}) => npmSmscProcess(register, env);

async function tasmanWith(doc: object): Promise<TestApp> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tasman-failover-')), 'carriers.json');
  writeFileSync(file, JSON.stringify(doc));
  const t = await createTestApp({ TASMAN_CARRIERS: file, CARRIER_PW: 'pw' }, { workers: true });
  cleanups.push(() => t.close());
  await pollUntil(async () => t.services.carriers!.view().carriers, (cs) => cs.every((c) => c.state === 'bound'), 'every carrier bound');
  return t;
}

const carrier = (id: string, port: number, extra: Record<string, unknown> = {}) =>
  ({ id, host: '127.0.0.1', port, system_id: 'tasman', password_env: 'CARRIER_PW', window: 20, tps: 300, ...extra });

interface Row { id: string; status: string; smsc_carrier: string | null; smsc_message_id: string | null; recipient: string }
const messagesOf = (t: TestApp, accountId: string) => rows<Row>(t.services.db, sql`
  select id, status, smsc_carrier, smsc_message_id, recipient from messages where account_id = ${accountId}`);

async function sendMany(t: TestApp, key: string, count: number, message: string): Promise<string[]> {
  const recipients = new Set<string>();
  while (recipients.size < count) recipients.add(mobile());
  const list = [...recipients];
  for (let i = 0; i < count; i += 1000) {
    expect((await call(t.app, key, 'POST', '/send-batch', { recipients: list.slice(i, i + 1000), message })).status).toBe(200);
  }
  return list;
}

/** `SUBMIT <to> <id>` lines of an npm SMSC process: every submit it accepted (written before its answer). */
const submits = (lines: string[]) => lines.filter((l) => l.startsWith('SUBMIT ')).map((l) => { const [, to, id] = l.split(' '); return { to: `+${to}`, id: id! }; });

describe('failover between SMSC processes', () => {
  it('2,000 messages with the primary SMSC process SIGKILLed and restarted: each accepted once by each SMSC process, its row naming the last; all end final', { timeout: 300_000 }, async () => {
    const killed = await npmSmsc();
    const port = killed.port;
    const backup = await npmSmsc();
    const t = await tasmanWith({ carriers: [carrier('primary', port), carrier('backup', backup.port)] });
    const total = 2000;
    const a = await createAccount(t.app, { credits: total + 10 });
    await sendMany(t, a.apiKey, total, 'failover');

    await pollUntil(async () => submits(killed.lines).length, (n) => n >= 300, 'the primary taking messages');
    await killed.kill('SIGKILL');
    await pollUntil(async () => submits(backup.lines).length, (n) => n >= 300, 'the backup taking over');
    const restarted = await npmSmsc({ SMSC_PORT: String(port) });
    await pollUntil(async () => t.services.carriers!.view().carriers[0]!.available, Boolean, 'the primary bound again', 90_000);
    // Back: new messages go to the primary again.
    const late = await sendMany(t, a.apiKey, 3, 'after');
    const done = await pollUntil(() => messagesOf(t, a.accountId), (m) => m.length === total + 3 && m.every((x) => x.status !== 'queued'), 'every submit', 180_000);
    expect(done.filter((m) => late.includes(m.recipient)).map((m) => m.smsc_carrier)).toEqual(['primary', 'primary', 'primary']);

    // Every submit each SMSC process accepted, the killed primary's first: all of them came before anything after the kill.
    const byProcess = { killed: submits(killed.lines), backup: submits(backup.lines), restarted: submits(restarted.lines) };
    const carrierOf = { killed: 'primary', backup: 'backup', restarted: 'primary' } as const;
    const accepted = new Map<string, Array<{ by: keyof typeof byProcess; id: string }>>();
    for (const by of ['killed', 'backup', 'restarted'] as const) {
      for (const s of byProcess[by]) accepted.set(s.to, [...(accepted.get(s.to) ?? []), { by, id: s.id }]);
    }
    // No SMSC process was sent a message twice, and every message was accepted.
    for (const list of Object.values(byProcess)) expect(new Set(list.map((s) => s.to)).size).toBe(list.length);
    expect(accepted.size).toBe(total + 3);
    // Accepted twice: only messages the killed primary accepted and whose answer the SIGKILL lost (it wrote the line,
    // then died before the answer left): SMPP cannot tell those apart from a refusal. They are at most the window's
    // worth in flight at the kill. Their retry, due 2 s later, queues behind the backlog, so it goes to the backup or,
    // if the primary is back by then, to the restarted primary (first on the route): both are right.
    const twice = [...accepted].filter(([, at]) => at.length > 1);
    expect(twice.length).toBeLessThanOrEqual(20);
    for (const [to, at] of twice) expect(at.map((x) => x.by), `${to} accepted twice`).toEqual(['killed', expect.stringMatching(/^(backup|restarted)$/)]);
    // Every row names the SMSC that accepted the message last, with the id that SMSC gave it.
    for (const m of done) {
      const last = accepted.get(m.recipient)!.at(-1)!;
      // The SMSC's ids are hex: an all-digit one reads as decimal until the carrier has learnt that (decision 0061).
      expect(m.smsc_carrier, m.recipient).toBe(carrierOf[last.by]);
      expect([normaliseMessageId(last.id, 'hex'), normaliseMessageId(last.id)], m.recipient).toContain(m.smsc_message_id);
    }

    // Receipts lost with the killed SMSC end through the expiry path: every message ends final.
    const final = await pollUntil(async () => {
      await t.services.receipts.expireOverdue(new Date(Date.now() + 100 * 3_600_000));
      return messagesOf(t, a.accountId);
    }, (m) => m.every((x) => x.status === 'delivered' || x.status === 'failed'), 'every message final', 120_000, 500);
    expect(final.filter((m) => m.status === 'delivered').length).toBeGreaterThan(total / 2);
  });

  it('an SMSC refusing with ESME_RSYSERR for longer than failover_after_seconds is passed over, and used again once it recovers', { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tasman-syserr-'));
    const syserr = path.join(dir, 'refusing');
    writeFileSync(syserr, '');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const primary = await npmSmsc({ SMSC_SYSERR_FILE: syserr });
    const backup = await npmSmsc();
    const t = await tasmanWith({ carriers: [carrier('primary', primary.port, { failover_after_seconds: 2 }), carrier('backup', backup.port)] });
    const a = await createAccount(t.app, { credits: 100 });
    const refused = () => primary.lines.filter((l) => l.startsWith('SYSERR')).length;

    // Bound but refusing: the first messages are refused (and retried, backing off); after 2 s the primary is
    // passed over but for its trial message every 2 s, so a retry may be refused again and wait longer.
    const first = await sendMany(t, a.apiKey, 10, 'while refusing');
    await pollUntil(async () => t.services.carriers!.view().carriers[0]!, (c) => !c.available && c.state === 'bound', 'the primary unavailable', 30_000);
    expect(refused()).toBeGreaterThan(0);
    const done = await pollUntil(() => messagesOf(t, a.accountId), (m) => m.every((x) => x.status === 'sent' || x.status === 'delivered'), 'the first ten sent', 150_000);
    expect(done.map((m) => m.smsc_carrier)).toEqual(first.map(() => 'backup'));
    const view = await admin(t.app, 'GET', '/admin/carriers');
    expect((view.body.carriers as unknown[])[0]).toMatchObject({ id: 'primary', state: 'bound', available: false, system_errors_since: expect.any(String) });

    // It recovers: a trial message (one every failover_after_seconds) finds it accepting, and it takes messages again.
    rmSync(syserr);
    await pollUntil(async () => {
      await sendMany(t, a.apiKey, 1, 'probing');
      return t.services.carriers!.view().carriers[0]!.available;
    }, Boolean, 'the primary available again', 60_000, 1_000);
    const later = await sendMany(t, a.apiKey, 5, 'after recovery');
    const after = await pollUntil(() => messagesOf(t, a.accountId), (m) => later.every((to) => m.find((x) => x.recipient === to)?.smsc_carrier), 'the later five sent', 60_000);
    expect(later.map((to) => after.find((x) => x.recipient === to)!.smsc_carrier)).toEqual(later.map(() => 'primary'));
  });

  it('`tasman simulator` with SIM_CARRIERS=2 serves two carriers from one process', { timeout: 120_000 }, async () => {
    const sim = await simulatorProcess(register, { SIM_CARRIERS: '2' });
    const second = Number(/"sim2":"127\.0\.0\.1:(\d+)"/.exec(sim.lines.find((l) => l.includes('"smscs"'))!)![1]);
    expect(second).not.toBe(sim.port);
    const t = await tasmanWith({ carriers: [carrier('au', sim.port), carrier('nz', second)], routes: [{ country: 'NZ', carriers: ['nz'] }, { carriers: ['au'] }] });
    const a = await createAccount(t.app, { credits: 10 });
    const nz = `+6421${mobile().slice(-7)}`;
    for (const to of [mobile(), nz]) expect((await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'two SMSCs' })).status).toBe(200);
    const done = await pollUntil(() => messagesOf(t, a.accountId), (m) => m.length === 2 && m.every((x) => x.status === 'delivered'), 'both delivered');
    expect(done.map((m) => [m.recipient === nz ? 'nz' : 'au', m.smsc_carrier])).toEqual(expect.arrayContaining([['au', 'au'], ['nz', 'nz']]));
  });
});
