// The whole pipeline (API, dispatcher, receipts, inbox, database) against an SMSC built on the npm `smpp` package,
// over real TCP, scripted to do what real SMSCs do: reuse message ids, split characters across MO parts, send
// what the database cannot store, refuse a later segment of a long message.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { deliver, type Received } from '../carrier/npm-smsc.ts';
import { until } from '../carrier/support.ts';
import { useNpmSmscApp } from '../support/npm-smsc-app.ts';
import { pollUntil } from '../support/poll.ts';

const p = useNpmSmscApp();

const session = () => p.smsc.sessions[p.smsc.sessions.length - 1] as Received['session'];

async function withNumber() {
  const a = await createAccount(p.app.app);
  const number = mobile();
  expect((await admin(p.app.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: a.accountId })).status).toBe(201);
  return { a, number };
}

const mo = (from: string, to: string) => ({ source_addr_ton: 1, source_addr_npi: 1, source_addr: from.slice(1), dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: to.slice(1) });

describe('inbound edges through the whole pipeline', () => {
  it('joins a UCS-2 surrogate pair and a GSM escape split across MO parts', async () => {
    const { a, number } = await withNumber();
    const person = mobile();
    const ucs2 = Buffer.from('Kia ora 👋 bye', 'utf16le').swap16();
    const cut = 17; // inside the high surrogate of 👋
    const udh = (ref: number, seq: number) => Buffer.from([5, 0, 3, ref, 2, seq]);
    expect(await deliver(session(), { ...mo(person, number), esm_class: 0x40, data_coding: 8, short_message: Buffer.concat([udh(31, 1), ucs2.subarray(0, cut)]) })).toBe(0);
    expect(await deliver(session(), { ...mo(person, number), esm_class: 0x40, data_coding: 8, short_message: Buffer.concat([udh(31, 2), ucs2.subarray(cut)]) })).toBe(0);
    expect(await deliver(session(), { ...mo(person, number), esm_class: 0x40, data_coding: 0, short_message: Buffer.from([5, 0, 3, 32, 2, 1, 0x35, 0x1b]) })).toBe(0);
    expect(await deliver(session(), { ...mo(person, number), esm_class: 0x40, data_coding: 0, short_message: Buffer.from([5, 0, 3, 32, 2, 2, 0x65, 0x21]) })).toBe(0);
    const inbox = await call(p.app.app, a.apiKey, 'GET', '/inbox');
    expect((inbox.body.messages as Array<{ body: string }>).map((m) => m.body).sort()).toEqual(['5€!', 'Kia ora 👋 bye']);
  });

  it('stores an MO once when the SMSC delivers it again because our deliver_sm_resp did not reach it', async () => {
    const { a, number } = await withNumber();
    await p.app.services.db.execute(sql`insert into webhook_endpoints (account_id, kind, url) values (${a.accountId}, 'inbound', 'https://example.com/mo')`);
    const person = mobile();
    const whole = { ...mo(person, number), short_message: 'see you at 6' };
    const udh = (seq: number) => Buffer.from([5, 0, 3, 77, 2, seq]);
    const parts = [1, 2].map((seq) => ({ ...mo(person, number), esm_class: 0x40, short_message: Buffer.concat([udh(seq), Buffer.from(seq === 1 ? 'first half, ' : 'second half', 'latin1')]) }));
    // The SMSC sends each one, loses our answer (it drops the connection before reading it), and sends it again
    // on the next bind: every copy is answered ESME_ROK, and the inbox holds each message once.
    for (const pdu of [whole, ...parts]) {
      const first = session();
      expect(await deliver(first, pdu)).toBe(0);
      first.destroy();
      await until(() => p.smsc.sessions.length > 0 && session() !== first && !!session().socket.writable, 20_000, 'the rebind');
      expect(await deliver(session(), pdu)).toBe(0);
    }
    const inbox = await call(p.app.app, a.apiKey, 'GET', '/inbox');
    expect((inbox.body.messages as Array<{ body: string }>).map((m) => m.body).sort()).toEqual(['first half, second half', 'see you at 6']);
    const events = await rows<{ event: string }>(p.app.services.db, sql`select event from webhook_deliveries where account_id = ${a.accountId}`);
    expect(events).toHaveLength(2);
    // Another person's same text is another message.
    expect(await deliver(session(), { ...whole, source_addr: mobile().slice(1) })).toBe(0);
    expect((await call(p.app.app, a.apiKey, 'GET', '/inbox')).body.total).toBe(3);
  });

  it('refuses an MO the database can never store (a NUL) with a permanent error, and the link stays up', async () => {
    const { a, number } = await withNumber();
    const binds = p.smsc.binds.length;
    expect(await deliver(session(), { ...mo(mobile(), number), data_coding: 3, short_message: Buffer.from('bad\u0000text', 'latin1') })).toBe(0x65);
    expect(await deliver(session(), { ...mo(mobile(), number), short_message: 'fine' })).toBe(0);
    expect((await call(p.app.app, a.apiKey, 'GET', '/inbox')).body.total).toBe(1);
    expect(p.smsc.binds.length).toBe(binds);
  });
});

type Json = Record<string, unknown>;
const view = async (key: string, id: string) => (await call(p.app.app, key, 'GET', `/message/${id}`)).body as { message: Json; delivery_receipt: Json | null };

const settled = (key: string, id: string, done: (v: Awaited<ReturnType<typeof view>>) => boolean) =>
  pollUntil(() => view(key, id), done, `message ${id} settled`, 30_000, 25);

const isSent = (v: { message: Json }) => v.message.status !== 'queued';
const receiptFor = (smscId: string, stat = 'DELIVRD') => ({
  source_addr: '61412345678', destination_addr: 'Tasman', esm_class: 4,
  short_message: `id:${smscId} sub:001 dlvrd:001 submit date:2401021304 done date:2401021305 stat:${stat} err:000 text:` });
const segmentSeq = (s: Received) => ((s.pdu.short_message as { udh?: Buffer[] }).udh?.[0]?.[4] ?? 1);

/** Answers each submit with the next id from the list (so a test can make the SMSC reuse ids). */
function answerWith(ids: string[]) {
  p.smsc.onSubmit = (s, respond) => {
    // Segments of one message arrive together; hand out ids in segment order.
    respond(0, ids.shift() ?? `spare-${randomUUID()}`);
    void s;
  };
}

describe('receipts for ids the SMSC reuses', () => {
  it('reach the newest message carrying the id, segment or not; a repeat changes nothing', async () => {
    const a = await createAccount(p.app.app, { credits: 20 });
    const tag = randomUUID().slice(0, 8);
    const [r1, r2] = [`${tag}a1`, `${tag}a2`];

    // An old two-part message takes r1 and r2, and is delivered.
    answerWith([r1, r2]);
    const old = await call(p.app.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'p'.repeat(200) });
    await settled(a.apiKey, old.body.message_id as string, isSent);
    for (const id of [r1, r2]) expect(await deliver(session(), receiptFor(id))).toBe(0);
    await settled(a.apiKey, old.body.message_id as string, (v) => v.message.status === 'delivered');

    // The SMSC restarts its counter: a new single-part message gets r1 again, and its receipt must reach it.
    answerWith([r1]);
    const fresh = await call(p.app.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'single' });
    await settled(a.apiKey, fresh.body.message_id as string, isSent);
    expect(await deliver(session(), receiptFor(r1, 'UNDELIV'))).toBe(0);
    expect(await settled(a.apiKey, fresh.body.message_id as string, (v) => v.message.status !== 'sent')).toMatchObject({
      message: { status: 'failed' }, delivery_receipt: { status: 'undelivered' } });
    expect((await view(a.apiKey, old.body.message_id as string)).message.status).toBe('delivered');

    // And the other way round: a new two-part message takes over an id a single-part message had.
    answerWith([`${tag}b1`]);
    const single = await call(p.app.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'first' });
    await settled(a.apiKey, single.body.message_id as string, isSent);
    expect(await deliver(session(), receiptFor(`${tag}b1`))).toBe(0);
    await settled(a.apiKey, single.body.message_id as string, (v) => v.message.status === 'delivered');
    answerWith([`${tag}b1`, `${tag}b2`]);
    const long = await call(p.app.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'q'.repeat(200) });
    await settled(a.apiKey, long.body.message_id as string, isSent);
    for (const id of [`${tag}b1`, `${tag}b2`]) expect(await deliver(session(), receiptFor(id))).toBe(0);
    await settled(a.apiKey, long.body.message_id as string, (v) => v.message.status === 'delivered');

    // A repeat of a receipt whose message is final is acknowledged and changes nothing.
    const before = await view(a.apiKey, long.body.message_id as string);
    expect(await deliver(session(), receiptFor(`${tag}b2`, 'EXPIRED'))).toBe(0);
    expect(await view(a.apiKey, long.body.message_id as string)).toEqual(before);
    const carriers = await rows<{ smsc_carrier: string }>(p.app.services.db, sql`
      select smsc_carrier from messages where id = ${long.body.message_id as string}`);
    expect(carriers).toEqual([{ smsc_carrier: 'default' }]);
  });

  it('an ACCEPTD receipt ends the message as unknown', async () => {
    const a = await createAccount(p.app.app);
    const id = `acc-${randomUUID().slice(0, 8)}`;
    answerWith([id]);
    const sent = await call(p.app.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'read by customer care' });
    await settled(a.apiKey, sent.body.message_id as string, isSent);
    expect(await deliver(session(), receiptFor(id, 'ACCEPTD'))).toBe(0);
    expect(await settled(a.apiKey, sent.body.message_id as string, (v) => v.message.status !== 'sent')).toMatchObject({
      message: { status: 'failed' }, delivery_receipt: { status: 'unknown', error_code: 'ACCEPTD' } });
  });
});

describe('a long message whose later segment is refused', () => {
  it('fails as partially sent, is not resent, and refunds only the parts never accepted', async () => {
    const a = await createAccount(p.app.app, { credits: 5 });
    const before = p.smsc.submits.length;
    p.smsc.onSubmit = (s, respond) => (segmentSeq(s) === 3 ? respond(0x08) : respond(0, `part-${randomUUID()}`));
    const sent = await call(p.app.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'r'.repeat(400) });
    expect(sent.body.credits_used).toBe(3);
    const id = sent.body.message_id as string;
    const done = await settled(a.apiKey, id, (v) => v.message.status !== 'queued');
    expect(done).toMatchObject({ message: { status: 'failed', error_code: 'partially_sent' }, delivery_receipt: { status: 'rejected', error_code: 'ESME_RSYSERR' } });
    expect(p.smsc.submits.length - before).toBe(3);
    expect((await call(p.app.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 3 });
    const ledger = await rows<{ kind: string; delta: number }>(p.app.services.db, sql`
      select kind, delta from credit_ledger where message_id = ${id} order by seq`);
    expect(ledger).toEqual([{ kind: 'send', delta: -3 }, { kind: 'refund', delta: 1 }]);
    const segments = await rows<{ seq: number }>(p.app.services.db, sql`select seq from message_segments where message_id = ${id} order by seq`);
    expect(segments).toEqual([{ seq: 0 }, { seq: 1 }]);
  });
});

describe('every message reaches a final state', () => {
  it('submits with a 48-hour validity period, and ends a message without a receipt as expired after it', async () => {
    const a = await createAccount(p.app.app);
    await p.app.services.db.execute(sql`
      insert into webhook_endpoints (account_id, kind, url) values (${a.accountId}, 'delivery_receipt', 'https://example.com/dlr')`);
    const id = `silent-${randomUUID().slice(0, 8)}`;
    answerWith([id]);
    const sent = await call(p.app.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'no receipt will come' });
    const messageId = sent.body.message_id as string;
    const at = await settled(a.apiKey, messageId, isSent);
    // validity_period is an SMPP relative time: 0 years, 0 months, 2 days (`smpp` reads it as a Date, so check the wire).
    expect(p.smsc.submits[p.smsc.submits.length - 1]?.raw.includes(Buffer.from('000002000000000R\0', 'latin1'))).toBe(true);
    const sentAt = Date.parse(at.message.sent_at as string);

    // Still within the period (and its hour of grace): nothing happens.
    await p.app.services.receipts.expireOverdue(new Date(sentAt + 48.5 * 3_600_000));
    expect((await view(a.apiKey, messageId)).message.status).toBe('sent');
    expect(await p.app.services.receipts.expireOverdue(new Date(sentAt + 49 * 3_600_000 + 1_000))).toBeGreaterThanOrEqual(1);
    const ended = await view(a.apiKey, messageId);
    expect(ended).toMatchObject({
      message: { status: 'failed', error_code: 'expired' },
      delivery_receipt: { status: 'expired', error_code: 'no_receipt' } });
    const events = await rows<{ event: string; body: string }>(p.app.services.db, sql`
      select event, body from webhook_deliveries where account_id = ${a.accountId}`);
    expect(events.map((e) => e.event)).toEqual(['message.dlr']);
    // The message.dlr body is GET /message/{id}, field for field.
    expect(JSON.parse(events[0]!.body)).toEqual(ended);
    // A receipt that comes after all changes nothing.
    expect(await deliver(session(), receiptFor(id))).toBe(0);
    expect(await view(a.apiKey, messageId)).toEqual(ended);
  });
});
