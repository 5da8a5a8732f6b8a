// An SMSC (the npm `smpp` server) that answers submit_sm with hex ids and writes its receipts in decimal, through
// the whole pipeline: `auto` cannot tell a hex id without a letter from a decimal one, so the carrier learns the
// forms from the receipts that match exactly one message, and every message is delivered.
import { describe, expect, it } from 'vitest';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { deliver, type Received } from '../carrier/npm-smsc.ts';
import { useNpmSmscApp } from '../support/npm-smsc-app.ts';
import { pollUntil } from '../support/poll.ts';

const p = useNpmSmscApp();

const receiptText = (id: string) => `id:${id} sub:001 dlvrd:001 submit date:2611220000 done date:2611220001 stat:DELIVRD err:000 text:`;

describe('receipt id forms learnt from an SMSC that answers in hex and reports in decimal', () => {
  it('delivers every message, and /admin/carriers shows the forms it learnt', async () => {
    const a = await createAccount(p.app.app);
    // Hex submit ids; the first has no letter (auto reads it as decimal 12345 until it knows better).
    const hexIds = ['12345', '2B', '99999'];
    const submits: Received[] = [];
    p.smsc.onSubmit = (s, respond) => { submits.push(s); respond(0, hexIds[submits.length - 1]); };
    for (const [i, hex] of hexIds.entries()) {
      const to = mobile();
      const sent = await call(p.app.app, a.apiKey, 'POST', '/send', { to, message: `forms ${i}` });
      expect(sent.status).toBe(200);
      const id = sent.body.message_id as string;
      await pollUntil(async () => ((await call(p.app.app, a.apiKey, 'GET', `/message/${id}`)).body.message as { status: string }).status, (s) => s === 'sent', `message ${i} sent`);
      const s = submits[i]!;
      const decimal = BigInt(`0x${hex}`).toString(10);
      expect(await deliver(s.session, {
        source_addr: s.pdu.destination_addr, destination_addr: s.pdu.source_addr, esm_class: 0x04, short_message: receiptText(decimal) })).toBe(0);
      expect((await call(p.app.app, a.apiKey, 'GET', `/message/${id}`)).body).toMatchObject({ message: { status: 'delivered' }, delivery_receipt: { status: 'delivered' } });
    }
    const view = await admin(p.app.app, 'GET', '/admin/carriers');
    expect(view.status).toBe(200);
    expect((view.body.carriers as Array<{ receipt_ids: unknown }>)[0]!.receipt_ids).toMatchObject({
      submit_id_base: 'hex', receipt_id_base: 'decimal', conflicts: 0, unmatched: 0 });
  });
});
