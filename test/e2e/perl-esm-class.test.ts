// Message types by esm_class against Debian's Net::SMPP SMSC (test/carrier/perl/smsc.pl, destinations ending 549),
// through the whole pipeline over real TCP: an SME delivery acknowledgement (0x08) and an MO (0x00) with
// receipt-like text saying UNDELIV, then an intermediate notification with the reply-path bit (0xA0) saying ENROUTE,
// then the DELIVRD receipt once the notification is answered. Only the MO reaches the inbox; the notification is
// kept as the message's intermediate_receipt; the message ends delivered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';
import { perlSmscProcess, type SmscProcess } from '../support/smsc-process.ts';

const hasNetSmpp = spawnSync('perl', ['-MNet::SMPP', '-e1']).status === 0;
if (!hasNetSmpp) console.warn('perl-esm-class.test.ts skipped: Net::SMPP is missing (apt-get install -y libnet-smpp-perl)');

describe.skipIf(!hasNetSmpp)('esm_class message types from the Net::SMPP SMSC', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  let perl: SmscProcess;
  let t: TestApp;
  beforeAll(async () => {
    perl = await perlSmscProcess((c) => { cleanups.push(c); });
    t = await createTestApp({ SMPP_HOST: '127.0.0.1', SMPP_PORT: String(perl.port) }, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
    for (const c of cleanups.reverse()) await c();
  });

  it('reads a receipt, an SME acknowledgement, an MO and an intermediate notification by bits 2–5 of esm_class alone', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const number = mobile();
    expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: a.accountId })).status).toBe(201);
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: '+61412345549', message: 'Your order is ready', sender: number });
    expect(sent.status).toBe(200);
    const id = sent.body.message_id as string;

    type View = { message: { status: string }; delivery_receipt: { status: string } | null; intermediate_receipt: { status: string; detail: string } | null };
    const final = await pollUntil(async () => (await call(t.app, a.apiKey, 'GET', `/message/${id}`)).body as unknown as View,
      (v) => v.message.status !== 'queued' && v.message.status !== 'sent', `message ${id} final; SMSC saw: ${perl.lines.join(' | ')}`, 60_000);
    // The UNDELIV of the acknowledgement and of the MO's text did not end it; the notification did not either.
    expect(final).toMatchObject({
      message: { status: 'delivered' }, delivery_receipt: { status: 'delivered' }, intermediate_receipt: { status: 'enroute', detail: 'ENROUTE' },
    });
    // The notification was answered before the receipt was sent: it was committed first.
    const seq = /^INTERMEDIATE seq=(\d+)$/.exec(perl.lines.find((l) => l.startsWith('INTERMEDIATE')) ?? '')?.[1];
    expect(perl.lines).toContain(`RESP cmd=80000005 status=0 seq=${seq}`);

    // Every deliver_sm was acknowledged (so committed), the SME acknowledgement included: never refused.
    const answers = await pollUntil(async () => perl.lines.filter((l) => l.startsWith('RESP cmd=80000005')), (l) => l.length >= 4, 'four deliver_sm_resp', 30_000);
    expect(answers).toHaveLength(4);
    expect(answers.every((l) => l.includes('status=0'))).toBe(true);
    // Only the person's message (esm_class 0x00) is an inbound message, linked to the message it answers.
    const inbox = (await call(t.app, a.apiKey, 'GET', '/inbox')).body as { messages: Array<{ body: string; in_reply_to: string | null }>; total: number };
    expect(inbox.total).toBe(1);
    expect(inbox.messages[0]).toMatchObject({ body: expect.stringContaining('stat:UNDELIV'), in_reply_to: id });
  });
});
