// GET /inbox and the inbound service, driven directly (no SMSC): routing, in_reply_to, opt-outs, the webhook
// event, multi-part reassembly, and the list's filters and validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import type { InboundSms } from '../../src/carrier/carrier.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const SHARED_AU = '+61480000000';
type Json = Record<string, unknown>;

const mo = (m: Partial<InboundSms> & { from: string; to: string }): InboundSms =>
  ({ text: 'hi', receivedAt: new Date(), ...m });


describe('inbound routing', () => {
  it('a reply to the shared number goes to the account that last messaged the sender from it', async () => {
    const first = await createAccount(t.app);
    const second = await createAccount(t.app);
    const person = mobile();
    await call(t.app, first.apiKey, 'POST', '/send', { to: person, message: 'from the first' });
    const last = await call(t.app, second.apiKey, 'POST', '/send', { to: person, message: 'from the second' });
    const row = await t.services.inbox.receive(mo({ from: person, to: SHARED_AU, text: 'which one?' }));
    expect(row).toMatchObject({ accountId: second.accountId, inReplyTo: last.body.message_id });
    expect((await call(t.app, first.apiKey, 'GET', '/inbox')).body.total).toBe(0);
    expect((await call(t.app, second.apiKey, 'GET', '/inbox')).body.total).toBe(1);
  });

  it('normalises local and international forms of the numbers', async () => {
    const a = await createAccount(t.app);
    const person = mobile();
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'hello' });
    const local = `0${person.slice(3)}`;
    const row = await t.services.inbox.receive(mo({ from: local, to: SHARED_AU.slice(1) }));
    expect(row).toMatchObject({ accountId: a.accountId, from: person, to: SHARED_AU, inReplyTo: sent.body.message_id });
  });

  it('in_reply_to only looks back 7 days', async () => {
    const a = await createAccount(t.app);
    const person = mobile();
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'old news' });
    await t.services.db.execute(sql`update messages set created_at = now() - interval '8 days' where id = ${String(sent.body.message_id)}`);
    const row = await t.services.inbox.receive(mo({ from: person, to: SHARED_AU }));
    expect(row).toMatchObject({ accountId: a.accountId, inReplyTo: null });
  });

  it('an opt-out keyword records the sender, and the event carries is_optout after the opt-out is written', async () => {
    const a = await createAccount(t.app);
    await t.services.db.execute(sql`
      insert into webhook_endpoints (account_id, kind, url) values (${a.accountId}, 'inbound', 'https://example.com/hook')`);
    const person = mobile();
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'promo' });
    const row = await t.services.inbox.receive(mo({ from: person, to: SHARED_AU, text: ' opt-out please' }));
    expect(row?.isOptout).toBe(true);
    expect((await call(t.app, a.apiKey, 'GET', '/optouts')).body.optouts).toEqual([
      {
        number: person, created_at: expect.any(String), source: 'keyword', inbound_message_id: row!.id, inbound_body: ' opt-out please',
        message_id: sent.body.message_id, contact_name: null,
      },
    ]);
    const events = await rows<{ event: string; message_id: string; body: string }>(t.services.db, sql`
      select event, message_id, body from webhook_deliveries where account_id = ${a.accountId}`);
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toBe('message.inbound');
    expect(JSON.parse(events[0]!.body)).toEqual({
      event: 'message.inbound', message_id: row!.id, from: person, to: SHARED_AU, body: ' opt-out please',
      received_at: row!.receivedAt.toISOString(), in_reply_to: sent.body.message_id, is_optout: true,
      is_optin: false,
    });
    // A second STOP keeps the first opt-out and is still listed.
    await t.services.inbox.receive(mo({ from: person, to: SHARED_AU, text: 'STOP' }));
    expect((await call(t.app, a.apiKey, 'GET', '/optouts')).body.optouts).toHaveLength(1);
    expect((await call(t.app, a.apiKey, 'GET', '/inbox')).body.total).toBe(2);
  });

  it('"Please stop" is not an opt-out', async () => {
    const a = await createAccount(t.app);
    const person = mobile();
    await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'x' });
    const row = await t.services.inbox.receive(mo({ from: person, to: SHARED_AU, text: 'Please stop' }));
    expect(row?.isOptout).toBe(false);
    expect((await call(t.app, a.apiKey, 'GET', '/optouts')).body.optouts).toEqual([]);
  });
});

const latin1 = (text: string) => ({ octets: Buffer.from(text, 'latin1'), coding: 'latin1' as const });

describe('multi-part inbound', () => {
  it('stores parts until the set is complete, in any order, ignoring a repeated part', async () => {
    const a = await createAccount(t.app);
    const number = mobile();
    await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: a.accountId });
    const person = mobile();
    const part = (seq: number, text: string) => mo({ from: person, to: number, text, part: { ref: 77, total: 3, seq, ...latin1(text) } });
    expect(await t.services.inbox.receive(part(3, 'three'))).toBeNull();
    expect(await t.services.inbox.receive(part(1, 'one '))).toBeNull();
    expect(await t.services.inbox.receive(part(1, 'one '))).toBeNull();
    const whole = await t.services.inbox.receive(part(2, 'two '));
    expect(whole).toMatchObject({ accountId: a.accountId, body: 'one two three' });
    const left = await rows(t.services.db, sql`select 1 from inbound_fragments where from_number = ${person}`);
    expect(left).toHaveLength(0);
    expect((await call(t.app, a.apiKey, 'GET', '/inbox')).body.total).toBe(1);
  });

  it('keeps parts of different messages apart by reference', async () => {
    const a = await createAccount(t.app);
    const number = mobile();
    await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: a.accountId });
    const person = mobile();
    const part = (ref: number, seq: number, text: string) => mo({ from: person, to: number, text, part: { ref, total: 2, seq, ...latin1(text) } });
    await t.services.inbox.receive(part(1, 1, 'A1'));
    await t.services.inbox.receive(part(2, 1, 'B1'));
    expect((await t.services.inbox.receive(part(2, 2, 'B2')))?.body).toBe('B1B2');
    expect((await t.services.inbox.receive(part(1, 2, 'A2')))?.body).toBe('A1A2');
  });
});

describe('GET /inbox', () => {
  async function seeded() {
    const a = await createAccount(t.app);
    const number = mobile();
    await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: a.accountId });
    const people = ['+61411111201', '+61422222202', '+61433333203'];
    const days = ['2030-03-01T10:00:00Z', '2030-03-02T10:00:00Z', '2030-03-03T10:00:00Z'];
    for (let i = 0; i < 3; i++) {
      await t.services.inbox.receive(mo({ from: people[i]!, to: number, text: `msg ${i}`, receivedAt: new Date(days[i]!) }));
    }
    return { a, people };
  }
  const list = async (key: string, query = '') => (await call(t.app, key, 'GET', `/inbox${query}`));

  it('lists newest first with total, limit and offset', async () => {
    const { a } = await seeded();
    const all = await list(a.apiKey);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, limit: 25, offset: 0 });
    expect((all.body.messages as Json[]).map((m) => m.body)).toEqual(['msg 2', 'msg 1', 'msg 0']);
    const page = await list(a.apiKey, '?limit=1&offset=1');
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect((page.body.messages as Json[]).map((m) => m.body)).toEqual(['msg 1']);
  });

  it('filters by part of the sender number', async () => {
    const { a } = await seeded();
    const res = await list(a.apiKey, `?from=${encodeURIComponent('22222')}`);
    expect(res.body.total).toBe(1);
    expect((res.body.messages as Json[])[0]!.from).toBe('+61422222202');
    expect((await list(a.apiKey, '?from=%25')).body.total).toBe(0);
  });

  it('filters by date range, a bare date_to including that whole day', async () => {
    const { a } = await seeded();
    const bodies = async (q: string) => ((await list(a.apiKey, q)).body.messages as Json[]).map((m) => m.body);
    expect(await bodies('?date_from=2030-03-02')).toEqual(['msg 2', 'msg 1']);
    expect(await bodies('?date_to=2030-03-02')).toEqual(['msg 1', 'msg 0']);
    expect(await bodies('?date_from=2030-03-02T00:00:00Z&date_to=2030-03-02T23:00:00Z')).toEqual(['msg 1']);
    expect(await bodies(`?date_from=${encodeURIComponent('2030-03-03T19:00:00+10:00')}`)).toEqual(['msg 2']);
  });

  it.each([
    ['?limit=0', 'validation_failed'],
    ['?limit=101', 'validation_failed'],
    ['?limit=ten', 'validation_failed'],
    ['?offset=-1', 'validation_failed'],
    ['?date_from=yesterday', 'validation_failed'],
    ['?date_to=2030-02-30', 'validation_failed'],
    ['?date_from=2030-03-05&date_to=2030-03-01', 'invalid_range'],
  ])('%s is 400 %s', async (query, code) => {
    const a = await createAccount(t.app);
    const res = await list(a.apiKey, query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code, error: expect.any(String) });
  });

  it('never shows another account\'s messages', async () => {
    await seeded();
    const other = await createAccount(t.app);
    expect((await list(other.apiKey)).body).toEqual({ messages: [], total: 0, unread_total: 0, limit: 25, offset: 0 });
  });
});

describe('POST /admin/simulator/inbound', () => {
  it('is 404 when this process runs no simulator (SMPP_HOST set)', async () => {
    const real = await createTestApp({ SMPP_HOST: '127.0.0.1' });
    try {
      expect(real.simulator).toBeNull();
      const res = await admin(real.app, 'POST', '/admin/simulator/inbound', { from: mobile(), to: SHARED_AU, text: 'hi' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    } finally {
      await real.close();
    }
  });

  it('the built-in SMSC runs whatever the roles when SMPP_HOST is unset', () => {
    expect(t.simulator).not.toBeNull();
  });

  it('needs the operator token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/admin/simulator/inbound', payload: { from: mobile(), to: SHARED_AU, text: 'hi' } });
    expect(res.statusCode).toBe(401);
  });
});
