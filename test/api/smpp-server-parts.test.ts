import { afterAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import smpp, { type PDU, type Session } from 'smpp';
import { call, createAccount, mobile } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';
import { useNpmSmscApp } from '../support/npm-smsc-app.ts';
import type { Received } from '../carrier/npm-smsc.ts';

// A customer's own long message through Tasman's SMPP server: each part is a message of its own, and reaches the
// carrier (an SMSC on the npm `smpp` package, which records what it got) with the customer's concatenation
// fields unchanged, so the handset joins the parts.
const env = useNpmSmscApp({ SMPP_SERVER_PORT: '0' });
const sessions: Session[] = [];
afterAll(() => { for (const s of sessions) s.destroy(); });

const udhOf = (s: Received): Buffer[] => ((s.pdu.short_message as { udh?: Buffer[] }).udh ?? []);

describe('SMPP server: parts of a customer\'s long message', () => {
  it('sends each UDH (8- and 16-bit reference) and SAR part as one segment with the customer\'s fields', async () => {
    const t = env.app;
    const acct = await createAccount(t.app, { credits: 10 });
    const cred = (await call(t.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'parts', tps: 100 })).body as { system_id: string; password: string };
    const session = smpp.connect({ host: '127.0.0.1', port: t.smppServer!.port });
    sessions.push(session);
    session.on('error', () => {});
    await once(session as unknown as NodeJS.EventEmitter, 'connect');
    const ask = (command: 'bind_transceiver' | 'submit_sm', options: Record<string, unknown>) => new Promise<PDU>((resolve) => session[command](options, resolve));
    expect((await ask('bind_transceiver', { system_id: cred.system_id, password: cred.password })).command_status).toBe(0);
    const to = { destination_addr: mobile().slice(1), dest_addr_ton: 1 };
    const submits = [
      { ...to, esm_class: 0x40, short_message: { udh: Buffer.from([5, 0, 3, 0x42, 2, 1]), message: 'First half, ' } },
      { ...to, esm_class: 0x40, short_message: { udh: Buffer.from([6, 8, 4, 0x12, 0x34, 2, 2]), message: 'second half.' } },
      { ...to, short_message: 'SAR one', sar_msg_ref_num: 0x2345, sar_total_segments: 3, sar_segment_seqnum: 1 },
    ];
    const ids: string[] = [];
    for (const s of submits) {
      const resp = await ask('submit_sm', s);
      expect(resp.command_status).toBe(0);
      ids.push(resp.message_id as string);
    }
    const tooLong = await ask('submit_sm', { ...to, esm_class: 0x40, short_message: { udh: Buffer.from([5, 0, 3, 0x43, 2, 1]), message: 'x'.repeat(154) } });
    expect(tooLong.command_status).toBe(0x01);
    const got = await pollUntil(async () => env.smsc.submits.filter((s) => s.pdu.destination_addr === to.destination_addr), (s) => s.length === 3, 'three submits at the SMSC');
    const byText = new Map(got.map((s) => [(s.pdu.short_message as { message: string }).message, s]));
    expect(udhOf(byText.get('First half, ')!)[0]?.toString('hex')).toBe('0003420201');
    expect(udhOf(byText.get('second half.')!)[0]?.toString('hex')).toBe('080412340202');
    const sar = byText.get('SAR one')!;
    expect(udhOf(sar)).toEqual([]);
    expect(sar.pdu).toMatchObject({ sar_msg_ref_num: 0x2345, sar_total_segments: 3, sar_segment_seqnum: 1 });
    // Three messages, one credit each.
    expect((await call(t.app, acct.apiKey, 'GET', '/balance')).body.credits).toBe(7);
    for (const id of ids) expect((await call(t.app, acct.apiKey, 'GET', `/message/${id}`)).status).toBe(200);
  });
});
