import { beforeAll, describe, expect, it } from 'vitest';
import type { PDU, Session } from 'smpp';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { admin, call, createAccount, mobile, type TestAccount } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';
import { ask, useSmppServerApp } from '../support/smpp-esme.ts';

// Receipts and inbound messages back over SMPP to the npm `smpp` package's client, through the durable queue.
const server = useSmppServerApp();
let t: ReturnType<typeof server.app>;
beforeAll(() => { t = server.app(); });

interface Esme { session: Session; delivered: PDU[]; answer: boolean }

async function bind(cred: { system_id: string; password: string }, mode: 'bind_transceiver' | 'bind_transmitter' | 'bind_receiver'): Promise<Esme> {
  const session = await server.connect();
  const esme: Esme = { session, delivered: [], answer: true };
  session.on('deliver_sm', (pdu) => {
    esme.delivered.push(pdu);
    if (esme.answer) session.send(pdu.response());
  });
  const resp = await ask(session, mode, { system_id: cred.system_id, password: cred.password });
  expect(resp.command_status).toBe(0);
  return esme;
}

const submit = (esme: Esme, options: Record<string, unknown>): Promise<PDU> => new Promise((resolve) => esme.session.submit_sm(options, resolve));

async function credential(acct: TestAccount) {
  const res = await call(t.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'esme', tps: 100 });
  return res.body as { id: string; system_id: string; password: string };
}

describe('SMPP server: receipts and inbound messages', () => {
  it('sends a receipt with the standard text and both TLVs when registered_delivery asks, and none when it does not', async () => {
    const acct = await createAccount(t.app, { credits: 10 });
    const esme = await bind(await credential(acct), 'bind_transceiver');
    const to = mobile();
    const asked = await submit(esme, { destination_addr: to.slice(1), dest_addr_ton: 1, short_message: 'With a receipt', registered_delivery: 1 });
    const silent = await submit(esme, { destination_addr: mobile().slice(1), dest_addr_ton: 1, short_message: 'Without' });
    const failed = await submit(esme, { destination_addr: `${to.slice(1, -3)}999`, dest_addr_ton: 1, short_message: 'Undelivered', registered_delivery: 1 });
    // Refused by the carrier at submit: no receipt transaction, the message ends rejected all the same.
    const refused = await submit(esme, { destination_addr: `${to.slice(1, -3)}996`, dest_addr_ton: 1, short_message: 'Refused', registered_delivery: 1 });
    for (const r of [asked, silent, failed, refused]) expect(r.command_status).toBe(0);
    await pollUntil(async () => esme.delivered.length, (n) => n >= 3, 'three receipts');
    const byId = new Map(esme.delivered.map((d) => [d.receipted_message_id as string, d]));
    const ok = byId.get(asked.message_id as string)!;
    expect(ok).toMatchObject({ esm_class: 4, message_state: 2, source_addr: to.slice(1), destination_addr: '' });
    expect((ok.short_message as { message: string }).message).toMatch(new RegExp(`^id:${asked.message_id as string} sub:001 dlvrd:001 submit date:\\d{10} done date:\\d{10} stat:DELIVRD err:000 text:With a receipt$`));
    const bad = byId.get(failed.message_id as string)!;
    expect(bad).toMatchObject({ esm_class: 4, message_state: 5 });
    expect((bad.short_message as { message: string }).message).toContain('stat:UNDELIV');
    const rejected = byId.get(refused.message_id as string)!;
    expect(rejected).toMatchObject({ esm_class: 4, message_state: 8 });
    expect((rejected.short_message as { message: string }).message).toContain('stat:REJECTD');
    // The message without registered_delivery is delivered too, but sends nothing back.
    await pollUntil(() => call(t.app, acct.apiKey, 'GET', `/message/${silent.message_id as string}`), (m) => (m.body.message as { status: string }).status === 'delivered', 'the silent message delivered');
    expect(byId.has(silent.message_id as string)).toBe(false);
  });

  it('keeps receipts while no receiving bind is open, and sends them on the next bind, in order; a refused one is sent again', async () => {
    const acct = await createAccount(t.app, { credits: 10 });
    const cred = await credential(acct);
    const sender = await bind(cred, 'bind_transmitter');
    const ids: string[] = [];
    for (const text of ['first', 'second', 'third']) {
      const r = await submit(sender, { destination_addr: mobile().slice(1), dest_addr_ton: 1, short_message: text, registered_delivery: 1 });
      ids.push(r.message_id as string);
    }
    // Queued in the order their receipts came; that is the order the ESME gets them in.
    const queued = await pollUntil(
      () => rows<{ message_id: string }>(t.services.db, sql`select message_id from smpp_deliveries where credential_id = ${cred.id} order by id`),
      (r) => r.length === 3, 'three receipts queued');
    expect(queued.map((r) => r.message_id).sort()).toEqual([...ids].sort());
    sender.session.close();
    const receiver = await bind(cred, 'bind_receiver');
    receiver.answer = false;
    await pollUntil(async () => receiver.delivered.length, (n) => n >= 1, 'a receipt, not answered');
    receiver.session.destroy();
    const again = await bind(cred, 'bind_receiver');
    await pollUntil(async () => again.delivered.length, (n) => n >= 3, 'the queued receipts');
    expect(again.delivered.slice(0, 3).map((d) => d.receipted_message_id)).toEqual(queued.map((r) => r.message_id));
    await pollUntil(
      () => rows(t.services.db, sql`select 1 from smpp_deliveries where credential_id = ${cred.id}`), (r) => r.length === 0, 'the queue emptied once answered');
  });

  it('sends an inbound message on the account\'s number to its receiving bind', async () => {
    const acct = await createAccount(t.app, { credits: 10 });
    const number = mobile();
    expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: acct.accountId })).status).toBe(201);
    const esme = await bind(await credential(acct), 'bind_transceiver');
    const from = mobile();
    expect((await admin(t.app, 'POST', '/admin/simulator/inbound', { from, to: number, text: 'Kia ora, yes please 👍' })).status).toBe(200);
    await pollUntil(async () => esme.delivered.length, (n) => n >= 1, 'the inbound message');
    const mo = esme.delivered[0]!;
    expect(mo).toMatchObject({ esm_class: 0, source_addr: from.slice(1), source_addr_ton: 1, destination_addr: number.slice(1), data_coding: 8 });
    expect((mo.short_message as { message: string }).message).toBe('Kia ora, yes please 👍');
  });
});
