// The whole pipeline (API, dispatcher, receipts, inbox, database) against an SMSC built on the npm `smpp` package,
// over real TCP, scripted to do what real SMSCs do: reuse message ids, split characters across MO parts, send
// what the database cannot store, refuse a later segment of a long message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { deliver, startNpmSmsc, type NpmSmsc, type Received } from '../carrier/npm-smsc.ts';
import { until } from '../carrier/support.ts';

let smsc: NpmSmsc;
let t: TestApp;
beforeAll(async () => {
  smsc = await startNpmSmsc();
  t = await createTestApp({ SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port), SMPP_TPS: '1000' }, { workers: true });
  await until(() => smsc.sessions.length > 0, 20_000, 'the bind');
});
afterAll(async () => {
  await t.close();
  await smsc.stop();
});

const session = () => smsc.sessions[smsc.sessions.length - 1] as Received['session'];

async function withNumber() {
  const a = await createAccount(t.app);
  const number = mobile();
  expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: a.accountId })).status).toBe(201);
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
    const inbox = await call(t.app, a.apiKey, 'GET', '/inbox');
    expect((inbox.body.messages as Array<{ body: string }>).map((m) => m.body).sort()).toEqual(['5€!', 'Kia ora 👋 bye']);
  });

  it('refuses an MO the database can never store (a NUL) with a permanent error, and the link stays up', async () => {
    const { a, number } = await withNumber();
    const binds = smsc.binds.length;
    expect(await deliver(session(), { ...mo(mobile(), number), data_coding: 3, short_message: Buffer.from('bad\u0000text', 'latin1') })).toBe(0x65);
    expect(await deliver(session(), { ...mo(mobile(), number), short_message: 'fine' })).toBe(0);
    expect((await call(t.app, a.apiKey, 'GET', '/inbox')).body.total).toBe(1);
    expect(smsc.binds.length).toBe(binds);
  });
});
