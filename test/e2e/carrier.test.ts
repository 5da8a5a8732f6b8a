// End to end through the API with the workers running: dispatcher → SMPP → built-in SMSC → receipts and MOs
// back through the carrier into the services. Each test number's outcome as docs/api-contract.md lists it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIM_PORT: '0', SIM_DLR_DELAY_MS: '20' }, { workers: true });
});
afterAll(async () => { await t.close(); });

const SHARED_AU = '+61480000000';

type Json = Record<string, unknown>;

const until = <T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30_000): Promise<T> =>
  pollUntil(read, done, 'the pipeline', timeoutMs, 25);

async function readMessage(key: string, id: unknown) {
  return (await call(t.app, key, 'GET', `/message/${String(id)}`)).body as { message: Json; delivery_receipt: Json | null };
}

/** Sends and waits until the message has a final outcome (or, for …997, until it is sent). */
async function sendAndSettle(key: string, to: string, message = 'Hello from Tasman', final = true) {
  const sent = await call(t.app, key, 'POST', '/send', { to, message });
  expect(sent.status).toBe(200);
  const view = await until(() => readMessage(key, sent.body.message_id),
    (v) => (final ? v.message.status === 'delivered' || v.message.status === 'failed' : v.message.status !== 'queued'));
  return { id: sent.body.message_id as string, view, send: sent.body };
}

const numberEnding = (tail: string) => `+61412${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}${tail}`;

describe('sending through the built-in SMSC', () => {
  it('a normal number: queued → sent → delivered, with the receipt', async () => {
    const a = await createAccount(t.app);
    const { view } = await sendAndSettle(a.apiKey, mobile());
    expect(view.message.status).toBe('delivered');
    expect(view.message.sent_at).toEqual(expect.stringMatching(/Z$/));
    expect(view.delivery_receipt).toEqual({ status: 'delivered', received_at: expect.stringMatching(/Z$/), error_code: null });
    expect(Date.parse(view.delivery_receipt!.received_at as string)).toBeGreaterThanOrEqual(Date.parse(view.message.sent_at as string));
  });

  it.each([
    ['999', 'undelivered', '001'],
    ['998', 'expired', null],
  ])('a number ending %s fails with a %s receipt', async (tail, state, errorCode) => {
    const a = await createAccount(t.app);
    const { view } = await sendAndSettle(a.apiKey, numberEnding(tail));
    expect(view.message.status).toBe('failed');
    expect(view.message.sent_at).not.toBeNull();
    expect(view.delivery_receipt).toEqual({ status: state, received_at: expect.any(String), error_code: errorCode });
    // Sent and later undelivered is not refunded.
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 4 });
  });

  it('a number ending 997 stays sent: no receipt ever comes', async () => {
    const a = await createAccount(t.app);
    const { id, view } = await sendAndSettle(a.apiKey, numberEnding('997'), 'x', false);
    expect(view.message.status).toBe('sent');
    // A normal message sent after it gets its receipt: by then the 997 one would have had its own.
    await sendAndSettle(a.apiKey, mobile());
    const later = await readMessage(a.apiKey, id);
    expect(later.message.status).toBe('sent');
    expect(later.delivery_receipt).toBeNull();
  });

  it('a number ending 996 is refused at submit: failed, never sent, refunded with a ledger row', async () => {
    const a = await createAccount(t.app);
    const { id, view, send } = await sendAndSettle(a.apiKey, numberEnding('996'), 'a'.repeat(200));
    expect(send.credits_used).toBe(2);
    expect(view.message.status).toBe('failed');
    expect(view.message.sent_at).toBeNull();
    // It ends with a `rejected` receipt carrying the SMSC's reason: every message ends with a webhook.
    expect(view.delivery_receipt).toEqual({ status: 'rejected', received_at: expect.stringMatching(/Z$/), error_code: expect.any(String) });
    const ledger = await until(
      () => rows<{ kind: string; delta: number; balance_after: number }>(t.services.db, sql`
        select kind, delta, balance_after from credit_ledger where message_id = ${id} order by created_at, kind desc`),
      (r) => r.length === 2);
    expect(ledger).toEqual([
      { kind: 'send', delta: -2, balance_after: 3 },
      { kind: 'refund', delta: 2, balance_after: 5 },
    ]);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 5 });
  });

  it('a 3-part message is delivered once every segment\'s receipt is in', async () => {
    const a = await createAccount(t.app);
    const text = 'Lorem ipsum dolor sit amet. '.repeat(15).slice(0, 400);
    const { id, view, send } = await sendAndSettle(a.apiKey, mobile(), text);
    expect(send.credits_used).toBe(3);
    expect(view.message).toMatchObject({ status: 'delivered', parts: 3, body: text });
    const segments = await rows<{ seq: number; dlr_status: string }>(t.services.db, sql`
      select seq, dlr_status from message_segments where message_id = ${id} order by seq`);
    expect(segments).toEqual([0, 1, 2].map((seq) => ({ seq, dlr_status: 'delivered' })));
  });

  it('a batch is sent and delivered, and the campaign counts it', async () => {
    const a = await createAccount(t.app, { credits: 50 });
    const recipients = [mobile(), mobile(), numberEnding('999'), numberEnding('996')];
    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients, message: 'Hi there' });
    expect(batch.status).toBe(200);
    const campaign = await until(
      async () => (await call(t.app, a.apiKey, 'GET', `/campaign/${String(batch.body.campaign_id)}`)).body,
      (b) => (b.stats as Json).queued === 0 && (b.stats as Json).sent === 0);
    expect(campaign.stats).toEqual({ total: 4, queued: 0, sent: 0, delivered: 2, failed: 2, scheduled: 0, cancelled: 0 });
    expect((campaign.campaign as Json).status).toBe('completed');
  });
});

describe('replies through the built-in SMSC', () => {
  const inject = (from: string, to: string, text: string) =>
    admin(t.app, 'POST', '/admin/simulator/inbound', { from, to, text });

  it('STOP lands in /inbox and /optouts and blocks the next send', async () => {
    const a = await createAccount(t.app);
    const person = mobile();
    const { id } = await sendAndSettle(a.apiKey, person, 'Sale today! Reply STOP to opt out');
    expect(await inject(person, SHARED_AU, 'Stop')).toEqual({ status: 200, body: { ok: true } });

    const inbox = await call(t.app, a.apiKey, 'GET', '/inbox');
    expect(inbox.body).toMatchObject({ total: 1, limit: 25, offset: 0 });
    expect((inbox.body.messages as Json[])[0]).toEqual({
      id: expect.any(String), from: person, to: SHARED_AU, body: 'Stop', received_at: expect.stringMatching(/Z$/),
      in_reply_to: id, is_optout: true, is_optin: false, direction: 'inbound', sender: person, recipient: SHARED_AU,
      created_at: expect.stringMatching(/Z$/), reply_to_body: 'Sale today! Reply STOP to opt out',
      status: 'received', campaign_id: null, unread: true, contact_name: null,
    });
    const optouts = await call(t.app, a.apiKey, 'GET', '/optouts');
    expect(optouts.body.optouts).toEqual([{
      number: person, created_at: expect.any(String), source: 'keyword', inbound_message_id: expect.any(String), inbound_body: 'Stop', message_id: id, contact_name: null,
    }]);

    const again = await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'one more' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('recipient_opted_out');
  });

  it('a normal reply is listed with in_reply_to and is not an opt-out', async () => {
    const a = await createAccount(t.app);
    const person = mobile();
    const { id } = await sendAndSettle(a.apiKey, person, 'Your table is booked for 7pm');
    await inject(person, SHARED_AU, 'Thanks, see you then');
    const inbox = await call(t.app, a.apiKey, 'GET', '/inbox');
    expect(inbox.body.messages).toEqual([expect.objectContaining({
      from: person, body: 'Thanks, see you then', in_reply_to: id, is_optout: false, reply_to_body: 'Your table is booked for 7pm',
    })]);
    expect((await call(t.app, a.apiKey, 'GET', '/optouts')).body.optouts).toEqual([]);
  });

  it('a 2-part MO is reassembled into one inbox message', async () => {
    const a = await createAccount(t.app);
    const person = mobile();
    await sendAndSettle(a.apiKey, person, 'How was your stay?');
    const long = 'Wonderful stay, thank you! The room was lovely and the staff were very helpful. '.repeat(3).trim();
    expect(long.length).toBeGreaterThan(160);
    await inject(person, SHARED_AU, long);
    const inbox = await call(t.app, a.apiKey, 'GET', '/inbox');
    expect(inbox.body.total).toBe(1);
    expect((inbox.body.messages as Json[])[0]!.body).toBe(long);
  });

  it('a reply to a dedicated number goes to the account holding it', async () => {
    const a = await createAccount(t.app);
    const number = mobile();
    expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: a.accountId })).status).toBe(201);
    const person = mobile();
    await inject(person, number, 'Hello? Is this the bakery?');
    const inbox = await call(t.app, a.apiKey, 'GET', '/inbox');
    expect(inbox.body.messages).toEqual([expect.objectContaining({ from: person, to: number, in_reply_to: null, is_optout: false })]);
  });

  it('a reply nobody can be found for is stored unrouted', async () => {
    const person = mobile();
    const nowhere = mobile();
    expect((await inject(person, nowhere, 'anyone there?')).status).toBe(200);
    const stored = await rows<{ account_id: string | null; body: string }>(t.services.db, sql`
      select account_id, body from inbound_messages where from_number = ${person} and to_number = ${nowhere}`);
    expect(stored).toEqual([{ account_id: null, body: 'anyone there?' }]);
  });
});
