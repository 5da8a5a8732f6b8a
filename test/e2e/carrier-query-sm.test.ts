// Receipts that never come: a carrier configured with query_sm is asked, over real TCP, for its
// messages still without a receipt; a final answer ends the message as its receipt would (status, receipt record,
// message.dlr), a non-final one waits, and an error leaves it to the expiry job. Two SMSC implementations: the
// built-in simulator and the npm `smpp` server.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { rows } from '../../src/platform/db/client.ts';
import { createSimulator } from '../../src/carrier/index.ts';
import { startNpmSmsc } from '../carrier/npm-smsc.ts';
import { pollUntil } from '../support/poll.ts';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function tasmanWith(carriers: object[]): Promise<TestApp> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tasman-query-sm-')), 'carriers.json');
  writeFileSync(file, JSON.stringify({ carriers }));
  const t = await createTestApp({ TASMAN_CARRIERS: file, CARRIER_PW: 'pw' }, { workers: true });
  cleanups.push(() => t.close());
  await pollUntil(async () => t.services.carriers!.view().carriers.every((c) => c.state === 'bound'), Boolean, 'bound');
  return t;
}

const carrier = (id: string, port: number) => ({
  id, host: '127.0.0.1', port, system_id: 'tasman', password_env: 'CARRIER_PW', query_sm: true, submit_id_base: 'hex', query_sm_after_seconds: 1,
});

type View = { message: { status: string; error_code?: string | null }; delivery_receipt: { status: string } | null };
const view = async (t: TestApp, key: string, id: string) => (await call(t.app, key, 'GET', `/message/${id}`)).body as View;

async function withDlrWebhook(t: TestApp) {
  const a = await createAccount(t.app, { credits: 10 });
  await t.services.db.execute(sql`
    insert into webhook_endpoints (account_id, kind, url) values (${a.accountId}, 'delivery_receipt', 'https://example.com/dlr')`);
  return a;
}

describe('query_sm for messages without a receipt', () => {
  it('asks the simulator until the state is final, then applies it as the receipt (status, receipt, webhook)', { timeout: 120_000 }, async () => {
    const queries: Array<{ id: string; known: boolean }> = [];
    // Receipts (and final states) 4 s after a submit: the first queries find the message still ENROUTE.
    const sim = createSimulator({
      port: 0, host: '127.0.0.1', dlrDelayMs: 4_000,
      logger: {
        debug: (o: object, msg?: string) => { if (msg === 'simulator: query_sm') queries.push(o as { id: string; known: boolean }); },
        info: () => {}, warn: () => {}, error: () => {},
      },
    });
    await sim.start();
    cleanups.push(() => sim.stop());
    const t = await tasmanWith([carrier('sim', sim.port)]);
    const a = await withDlrWebhook(t);
    // …997: the simulator never sends this message's receipt, but knows it was delivered when asked.
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: `${mobile().slice(0, -3)}997`, message: 'receipt lost on the way' });
    const id = sent.body.message_id as string;
    // A two-part one too: each segment is asked about, and the message ends once both are final.
    const long = await call(t.app, a.apiKey, 'POST', '/send', { to: `${mobile().slice(0, -3)}997`, message: 'x'.repeat(200) });
    const longId = long.body.message_id as string;

    const done = await pollUntil(() => view(t, a.apiKey, id), (v) => v.message.status === 'delivered', 'delivered through query_sm', 60_000, 200);
    expect(done.delivery_receipt).toMatchObject({ status: 'delivered' });
    expect((await pollUntil(() => view(t, a.apiKey, longId), (v) => v.message.status === 'delivered', 'the two-part one delivered', 60_000, 200)).delivery_receipt)
      .toMatchObject({ status: 'delivered' });
    const segments = await rows<{ dlr_status: string | null }>(t.services.db, sql`select dlr_status from message_segments where message_id = ${longId}`);
    expect(segments.map((x) => x.dlr_status)).toEqual(['delivered', 'delivered']);
    // Asked more than once: ENROUTE (pending: ask again later) before the final answer.
    expect(queries.length).toBeGreaterThanOrEqual(2);
    expect(queries.every((q) => q.known)).toBe(true);
    const events = await rows<{ event: string }>(t.services.db, sql`select event from webhook_deliveries where account_id = ${a.accountId}`);
    expect(events.map((e) => e.event)).toEqual(['message.dlr', 'message.dlr']);
    // Final now: no further queries for it. A later message's first query comes from a sweep that starts after
    // both ended, so by then any query for them would have been made.
    const asked = queries.length;
    const seen = new Set(queries.map((q) => q.id));
    await call(t.app, a.apiKey, 'POST', '/send', { to: `${mobile().slice(0, -3)}997`, message: 'a later one' });
    await pollUntil(() => queries.slice(asked), (q) => q.some((x) => !seen.has(x.id)), 'the later message queried', 60_000, 100);
    expect(queries.slice(asked).filter((q) => seen.has(q.id))).toEqual([]);
  });

  it('with the npm smpp server: an undelivered answer fails the message; an unknown id leaves it to the expiry job', { timeout: 120_000 }, async () => {
    const smsc = await startNpmSmsc();
    cleanups.push(() => smsc.stop());
    let n = 0;
    smsc.onSubmit = (_r, respond) => respond(0, (0xab00 + ++n).toString(16).toUpperCase());
    smsc.onQuery = (q, respond) => {
      // The first message's id (AB01) is known and undeliverable; any other is unknown to this SMSC.
      if (q.message_id === 'AB01') respond(0, { message_state: 5, final_date: '261122100000000+', error_code: 12 });
      else respond(0x0c);
    };
    const t = await tasmanWith([carrier('npm', smsc.port)]);
    const a = await withDlrWebhook(t);
    const first = (await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'one' })).body.message_id as string;
    await pollUntil(() => view(t, a.apiKey, first), (v) => v.message.status === 'sent', 'first sent');
    const second = (await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'two' })).body.message_id as string;

    const failed = await pollUntil(() => view(t, a.apiKey, first), (v) => v.message.status === 'failed', 'the undelivered answer applied', 60_000, 200);
    expect(failed.delivery_receipt).toMatchObject({ status: 'undelivered', error_code: '012' });
    // The second was asked (its id went back in the SMSC's own hex form) and refused: still waiting.
    await pollUntil(async () => smsc.queries.filter((q) => q.message_id === 'AB02').length, (c) => c >= 2, 'the second asked twice', 30_000, 200);
    expect((await view(t, a.apiKey, second)).message.status).toBe('sent');
    expect(smsc.queries.every((q) => q.source_addr !== undefined)).toBe(true);
  });
});
