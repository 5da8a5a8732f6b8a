import { afterAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import smpp, { type PDU, type Session } from 'smpp';
import { call, createAccount, mobile, type TestAccount } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';
import { useNpmSmscApp } from '../support/npm-smsc-app.ts';
import { decodePdu } from '../../src/carrier/smpp/codec.ts';
import { parseSmppTime } from '../../src/carrier/smpp-server/smpp-time.ts';
import { expireByValidity } from '../../src/modules/smpp-credentials/smpp-validity.repo.ts';

// The validity_period of a customer's submit_sm, end to end: the carrier (an SMSC on the npm `smpp` package, which
// records what it got and sends no receipts) is given what remains of it, and the message ends `expired` once it
// has passed, refunded if it was never sent, with the EXPIRED receipt back to the ESME.
const env = useNpmSmscApp({ SMPP_SERVER_PORT: '0' });
const sessions: Session[] = [];
afterAll(() => { for (const s of sessions) s.destroy(); });

const MINUTE = 60_000;
const GRACE = 60 * MINUTE;

/** An absolute SMPP time `ms` from now, written in Sydney standard time (+10:00, 40 quarter hours). */
function absolute(ms: number): string {
  const local = new Date(Date.now() + ms + 10 * 60 * MINUTE).toISOString();
  return `${local.slice(2, 4)}${local.slice(5, 7)}${local.slice(8, 10)}${local.slice(11, 13)}${local.slice(14, 16)}${local.slice(17, 19)}040+`;
}

async function esme(acct: TestAccount): Promise<{ submit(options: Record<string, unknown>): Promise<PDU>; delivered: PDU[] }> {
  const t = env.app;
  const cred = (await call(t.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'validity', tps: 100 })).body as { system_id: string; password: string };
  const session = smpp.connect({ host: '127.0.0.1', port: t.smppServer!.port });
  sessions.push(session);
  session.on('error', () => {});
  const delivered: PDU[] = [];
  session.on('deliver_sm', (pdu) => { delivered.push(pdu); session.send(pdu.response()); });
  await once(session as unknown as NodeJS.EventEmitter, 'connect');
  const bound = await new Promise<PDU>((resolve) => session.bind_transceiver({ system_id: cred.system_id, password: cred.password }, resolve));
  expect(bound.command_status).toBe(0);
  return { delivered, submit: (options) => new Promise((resolve) => session.submit_sm({ dest_addr_ton: 1, registered_delivery: 1, ...options }, resolve)) };
}

const messageOf = async (acct: TestAccount, id: string) => (await call(env.app.app, acct.apiKey, 'GET', `/message/${id}`)).body as {
  message: { status: string; error_code: string | null }; delivery_receipt: { status: string; error_code: string | null } | null;
};
const balanceOf = async (acct: TestAccount) => (await call(env.app.app, acct.apiKey, 'GET', '/balance')).body.credits as number;
const expireAt = (at: number) => expireByValidity(env.app.services.db, env.app.services.receipts.linksOf, new Date(at), GRACE);

describe('SMPP server: validity_period', () => {
  it('gives the carrier what remains of the customer\'s validity, relative or absolute, and its own without one', async () => {
    const acct = await createAccount(env.app.app, { credits: 10 });
    const e = await esme(acct);
    const to = { relative: mobile(), absolute: mobile(), none: mobile() };
    const before = Date.now();
    for (const [form, validity_period] of [['relative', '000000010000000R'], ['absolute', absolute(30 * MINUTE)], ['none', '']] as const) {
      expect((await e.submit({ destination_addr: to[form].slice(1), short_message: form, validity_period })).command_status).toBe(0);
    }
    const got = await pollUntil(async () => env.smsc.submits.filter((s) => Object.values(to).includes(`+${s.pdu.destination_addr as string}`)), (s) => s.length === 3, 'three submits at the SMSC');
    const after = Date.now();
    const validityTo = (number: string) => decodePdu(got.find((s) => `+${s.pdu.destination_addr as string}` === number)!.raw) as { validityPeriod: string };
    const ends = (number: string) => {
      const period = validityTo(number).validityPeriod;
      expect(period).toMatch(/^\d{12}000R$/);
      return (parseSmppTime(period, new Date(0)) as { at: Date }).at.getTime();
    };
    // What remains: no more than was given, less no more than the time the test took and two cuts to whole
    // seconds (the absolute time as written, what remains as sent).
    const slack = after - before + 2000;
    expect(ends(to.relative)).toBeLessThanOrEqual(60 * MINUTE);
    expect(ends(to.relative)).toBeGreaterThanOrEqual(60 * MINUTE - slack);
    expect(ends(to.absolute)).toBeLessThanOrEqual(30 * MINUTE);
    expect(ends(to.absolute)).toBeGreaterThanOrEqual(30 * MINUTE - slack);
    // Without one: the carrier's own (MESSAGE_VALIDITY_HOURS, 48).
    expect(validityTo(to.none).validityPeriod).toBe('000002000000000R');
  });

  it('ends a message never sent once its validity has passed, refunded, with an EXPIRED receipt to the ESME', async () => {
    const acct = await createAccount(env.app.app, { credits: 10 });
    const e = await esme(acct);
    const submittedAt = Date.now();
    // Due in an hour, valid for two (absolute form): it waits, scheduled.
    const resp = await e.submit({ destination_addr: mobile().slice(1), short_message: 'Sale ends today', schedule_delivery_time: '000000010000000R', validity_period: absolute(120 * MINUTE) });
    expect(resp.command_status).toBe(0);
    const id = resp.message_id as string;
    expect((await messageOf(acct, id)).message.status).toBe('scheduled');
    expect(await balanceOf(acct)).toBe(9);

    // Other tests' messages share the database: what is looked at is this message.
    await expireAt(submittedAt + 119 * MINUTE);
    expect((await messageOf(acct, id)).message.status).toBe('scheduled');
    expect((await expireAt(Date.now() + 121 * MINUTE)).ended).toBeGreaterThanOrEqual(1);
    const ended = await messageOf(acct, id);
    expect(ended.message).toMatchObject({ status: 'failed', error_code: 'validity_expired' });
    expect(ended.delivery_receipt).toMatchObject({ status: 'expired' });
    expect(await balanceOf(acct)).toBe(10);
    const receipt = await pollUntil(async () => e.delivered.find((d) => d.receipted_message_id === id), (d) => d !== undefined, 'the EXPIRED receipt');
    expect(receipt).toMatchObject({ esm_class: 4, message_state: 3 });
    expect((receipt!.short_message as { message: string }).message).toContain('stat:EXPIRED');
  });

  it('ends a sent message without a receipt as MESSAGE_VALIDITY_HOURS\' expiry does, at the customer\'s time and its grace', async () => {
    const acct = await createAccount(env.app.app, { credits: 10 });
    const e = await esme(acct);
    const submittedAt = Date.now();
    const resp = await e.submit({ destination_addr: mobile().slice(1), short_message: 'Your code is 4711', validity_period: '000000001000000R' });
    expect(resp.command_status).toBe(0);
    const id = resp.message_id as string;
    await pollUntil(() => messageOf(acct, id), (m) => m.message.status === 'sent', 'the message sent');

    // The SMSC gives up at ten minutes; its EXPIRED receipt has the hour's grace to come.
    await expireAt(submittedAt + 10 * MINUTE + GRACE - MINUTE);
    expect((await messageOf(acct, id)).message.status).toBe('sent');
    expect((await expireAt(Date.now() + 10 * MINUTE + GRACE + MINUTE)).ended).toBeGreaterThanOrEqual(1);
    const ended = await messageOf(acct, id);
    expect(ended.message.status).toBe('failed');
    expect(ended.delivery_receipt).toMatchObject({ status: 'expired', error_code: 'no_receipt' });
    // It was sent: nothing refunded.
    expect(await balanceOf(acct)).toBe(9);
    const receipt = await pollUntil(async () => e.delivered.find((d) => d.receipted_message_id === id), (d) => d !== undefined, 'the EXPIRED receipt');
    expect(receipt).toMatchObject({ message_state: 3 });
  });
});
