import { beforeAll, describe, expect, it } from 'vitest';
import { call, createAccount, mobile, type TestAccount } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';
import { ask, useSmppServerApp } from '../support/smpp-esme.ts';

// Tasman's SMPP server against an ESME nobody on the project wrote: the npm `smpp` package's client, over TCP.
const server = useSmppServerApp();
const connect = server.connect;
let t: ReturnType<typeof server.app>;
beforeAll(() => { t = server.app(); });

async function credential(acct: TestAccount, body: Record<string, unknown> = {}) {
  const res = await call(t.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'esme', ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; system_id: string; password: string };
}

async function bound(acct: TestAccount, body: Record<string, unknown> = {}) {
  const cred = await credential(acct, body);
  const session = await connect();
  const resp = await ask(session, 'bind_transceiver', { system_id: cred.system_id, password: cred.password });
  expect(resp.command_status).toBe(0);
  return { cred, session };
}

describe('SMPP server: binds', () => {
  it('answers a wrong password, an unknown system_id and a refused address with their statuses, and binds the right one', async () => {
    const acct = await createAccount(t.app);
    const cred = await credential(acct);
    const session = await connect();
    expect((await ask(session, 'bind_transceiver', { system_id: cred.system_id, password: 'wrong' })).command_status).toBe(0x0e);
    expect((await ask(session, 'bind_transceiver', { system_id: 'tsmnosuchid00', password: cred.password })).command_status).toBe(0x0f);
    expect((await ask(session, 'submit_sm', { destination_addr: '61412345678', short_message: 'hi' })).command_status).toBe(0x04);
    const ok = await ask(session, 'bind_transceiver', { system_id: cred.system_id, password: cred.password });
    expect(ok.command_status).toBe(0);
    expect(ok.system_id).toBe('TASMAN');
    expect((await ask(session, 'bind_transceiver', { system_id: cred.system_id, password: cred.password })).command_status).toBe(0x05);
    expect((await ask(session, 'enquire_link')).command_status).toBe(0);
    const nacked = await ask(session, 'cancel_sm', { message_id: 'x', destination_addr: '61412345678' });
    expect(nacked.command).toBe('generic_nack');
    expect(nacked.command_status).toBe(0x03);

    const fenced = await credential(acct, { allowed_ips: ['203.0.113.0/24'] });
    const other = await connect();
    expect((await ask(other, 'bind_transmitter', { system_id: fenced.system_id, password: fenced.password })).command_status).toBe(0x0d);

    const audit = await call(t.app, acct.apiKey, 'GET', '/audit?action=smpp.bind');
    const entries = audit.body.entries as Array<{ outcome: string; reason: string | null }>;
    expect(entries.map((e) => `${e.outcome}:${e.reason}`).sort()).toEqual(['ok:null', 'refused:address_not_allowed', 'refused:wrong_password']);
    const listed = await call(t.app, acct.apiKey, 'GET', '/smpp-credentials');
    expect((listed.body.credentials as Array<{ id: string; last_bound_at: string | null }>).find((c) => c.id === cred.id)!.last_bound_at).not.toBeNull();
  });

  it('closes a credential\'s binds at once when it is revoked, and refuses it afterwards', async () => {
    const acct = await createAccount(t.app);
    const { cred, session } = await bound(acct);
    expect((await call(t.app, acct.apiKey, 'DELETE', `/smpp-credentials/${cred.id}`)).status).toBe(200);
    await session.closed;
    const again = await connect();
    expect((await ask(again, 'bind_transceiver', { system_id: cred.system_id, password: cred.password })).command_status).toBe(0x0f);
  });

  it('holds max_binds', async () => {
    const acct = await createAccount(t.app);
    const { cred } = await bound(acct, { max_binds: 1 });
    const second = await connect();
    expect((await ask(second, 'bind_receiver', { system_id: cred.system_id, password: cred.password })).command_status).toBe(0x0d);
  });
});

describe('SMPP server: submit_sm', () => {
  it('sends through the send path: the message id is Tasman\'s, committed and charged', async () => {
    const acct = await createAccount(t.app, { credits: 10 });
    const { session } = await bound(acct);
    const to = mobile();
    const resp = await ask(session, 'submit_sm', { destination_addr: to.slice(1), dest_addr_ton: 1, short_message: 'Hello from an ESME' });
    expect(resp.command_status).toBe(0);
    const message = await call(t.app, acct.apiKey, 'GET', `/message/${resp.message_id as string}`);
    expect(message.status).toBe(200);
    expect(message.body.message).toMatchObject({ recipient: to, body: 'Hello from an ESME' });
    expect((await call(t.app, acct.apiKey, 'GET', '/balance')).body.credits).toBe(9);
    await pollUntil(() => call(t.app, acct.apiKey, 'GET', `/message/${resp.message_id as string}`), (m) => (m.body.message as { status: string }).status === 'delivered', 'the message delivered');
  });

  it('answers UCS-2 text as it was written', async () => {
    const acct = await createAccount(t.app, { credits: 10 });
    const { session } = await bound(acct);
    const resp = await ask(session, 'submit_sm', { destination_addr: mobile().slice(1), dest_addr_ton: 1, data_coding: 8, short_message: 'Kia ora – ngā mihi 👋' });
    expect(resp.command_status).toBe(0);
    const message = await call(t.app, acct.apiKey, 'GET', `/message/${resp.message_id as string}`);
    expect((message.body.message as { body: string }).body).toBe('Kia ora – ngā mihi 👋');
  });

  it('takes a long text in message_payload as one message that Tasman splits', async () => {
    const acct = await createAccount(t.app, { credits: 10 });
    const { session } = await bound(acct);
    const text = 'All aboard the long message, '.repeat(10);
    const resp = await ask(session, 'submit_sm', { destination_addr: mobile().slice(1), dest_addr_ton: 1, message_payload: text });
    expect(resp.command_status).toBe(0);
    const message = (await call(t.app, acct.apiKey, 'GET', `/message/${resp.message_id as string}`)).body.message as { body: string; parts: number };
    expect(message).toMatchObject({ body: text, parts: 2 });
  });

  it('answers the send path\'s refusals with their command statuses', async () => {
    const acct = await createAccount(t.app, { credits: 1 });
    const { session } = await bound(acct);
    const submit = (options: Record<string, unknown>) => ask(session, 'submit_sm', { dest_addr_ton: 1, short_message: 'hi', ...options });
    expect((await submit({ destination_addr: '123' })).command_status).toBe(0x0b);
    expect((await submit({ destination_addr: '6112345' })).command_status).toBe(0x0b);
    expect((await submit({ destination_addr: mobile().slice(1), source_addr: 'NotMine', source_addr_ton: 5 })).command_status).toBe(0x0a);
    expect((await submit({ destination_addr: mobile().slice(1) })).command_status).toBe(0);
    expect((await submit({ destination_addr: mobile().slice(1) })).command_status).toBe(0x64);
  });

  it('throttles submits beyond the credential\'s tps', async () => {
    const acct = await createAccount(t.app, { credits: 50 });
    const { session } = await bound(acct, { tps: 1 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => ask(session, 'submit_sm', { destination_addr: mobile().slice(1), dest_addr_ton: 1, short_message: 'hi' })));
    const statuses = answers.map((a) => a.command_status);
    expect(statuses).toContain(0x58);
    expect(statuses).toContain(0);
  });
});
