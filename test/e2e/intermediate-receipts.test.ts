// Intermediate receipts through the whole pipeline over real SMPP (an SMSC on the npm `smpp` package) to a real HTTP
// receiver: an ENROUTE receipt and an intermediate notification (esm_class 0x20, reply-path bit set) are kept on
// the message and POSTed as message.dlr only to the endpoint that asked for them; the final receipt still decides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { pollUntil } from '../support/poll.ts';
import { deliver, startNpmSmsc, type NpmSmsc, type Received } from '../carrier/npm-smsc.ts';
import { until } from '../carrier/support.ts';

let smsc: NpmSmsc;
let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  [smsc, receiver] = await Promise.all([startNpmSmsc(), startReceiver()]);
  t = await createTestApp({ SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port), SMPP_TPS: '1000', WEBHOOK_ALLOW_PRIVATE: 'true' }, { workers: true });
  await until(() => smsc.sessions.length > 0, 20_000, 'the bind');
});
afterAll(async () => {
  await t?.close();
  await smsc?.stop();
  await receiver?.close();
});

const session = () => smsc.sessions[smsc.sessions.length - 1] as Received['session'];
const receiptPdu = (smscId: string, stat: string, esmClass = 0x04) => ({
  source_addr: '61412345678', destination_addr: 'Tasman', esm_class: esmClass,
  short_message: `id:${smscId} sub:001 dlvrd:000 submit date:2401021304 done date:2401021305 stat:${stat} err:000 text:`,
});
type View = { message: { status: string }; delivery_receipt: unknown; intermediate_receipt: { status: string; detail: string } | null };
const view = async (key: string, id: string) => (await call(t.app, key, 'GET', `/message/${id}`)).body as unknown as View;
const outbox = (accountId: string) => rows<{ n: number }>(t.services.db, sql`select count(*)::int as n from webhook_deliveries where account_id = ${accountId}`);

/** An account whose delivery endpoint is the receiver at `path`, and one message of it accepted by the SMSC as `smscId`. */
async function sentVia(path: string, events: string[] | undefined, smscId: string) {
  const a = await createAccount(t.app);
  expect((await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: `${receiver.url}${path}`, ...(events ? { events } : {}) })).status).toBe(200);
  smsc.onSubmit = (_s, respond) => respond(0, smscId);
  const id = (await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'Your table is ready' })).body.message_id as string;
  await pollUntil(() => view(a.apiKey, id), (v) => v.message.status === 'sent', `message ${id} sent`, 30_000);
  return { a, id };
}

describe('intermediate receipts over SMPP', () => {
  it('are kept and sent as message.dlr only where asked; a final receipt ends the message and nothing moves it back', async () => {
    const tag = randomUUID().slice(0, 8).toUpperCase();
    const asks = await sentVia('/asks', ['message.dlr', 'message.dlr.intermediate'], `${tag}A`);
    const plain = await sentVia('/plain', undefined, `${tag}B`);

    // A 0x04 receipt whose state is ENROUTE, and an intermediate notification (0x20 with the reply-path bit, 0x80):
    // both non-final, whatever stat the notification names.
    for (const smscId of [`${tag}A`, `${tag}B`]) expect(await deliver(session(), receiptPdu(smscId, 'ENROUTE'))).toBe(0);
    expect(await view(asks.a.apiKey, asks.id)).toMatchObject({ message: { status: 'sent' }, delivery_receipt: null, intermediate_receipt: { status: 'enroute', detail: 'ENROUTE' } });
    expect(await deliver(session(), receiptPdu(`${tag}A`, 'ACCEPTD', 0xa0))).toBe(0);
    expect(await view(asks.a.apiKey, asks.id)).toMatchObject({ message: { status: 'sent' }, intermediate_receipt: { detail: 'ACCEPTD' } });
    expect(await view(plain.a.apiKey, plain.id)).toMatchObject({ message: { status: 'sent' }, intermediate_receipt: { detail: 'ENROUTE' } });
    // Each was committed before its deliver_sm_resp: the outbox holds the events now.
    expect(await outbox(asks.a.accountId)).toEqual([{ n: 2 }]);
    expect(await outbox(plain.a.accountId)).toEqual([{ n: 0 }]);

    for (const smscId of [`${tag}A`, `${tag}B`]) expect(await deliver(session(), receiptPdu(smscId, 'DELIVRD'))).toBe(0);
    // Late intermediate states after the final one change nothing and send nothing.
    expect(await deliver(session(), receiptPdu(`${tag}A`, 'ENROUTE'))).toBe(0);
    expect(await deliver(session(), receiptPdu(`${tag}A`, 'BUFFRED', 0x20))).toBe(0);
    const final = await view(asks.a.apiKey, asks.id);
    expect(final).toMatchObject({ message: { status: 'delivered' }, delivery_receipt: { status: 'delivered' }, intermediate_receipt: { detail: 'ACCEPTD' } });
    expect(await outbox(asks.a.accountId)).toEqual([{ n: 3 }]);
    expect(await outbox(plain.a.accountId)).toEqual([{ n: 1 }]);

    // The receiver got exactly those: three message.dlr for the endpoint that asked, the final one for the other.
    await receiver.waitFor(4, 60_000);
    const at = (path: string) => receiver.requests.filter((r) => r.path === path);
    expect(at('/asks').map((r) => r.headers['x-service-event'])).toEqual(['message.dlr', 'message.dlr', 'message.dlr']);
    const bodies = at('/asks').map((r) => JSON.parse(r.body) as View);
    expect(bodies.map((b) => [b.message.status, b.intermediate_receipt?.detail, b.delivery_receipt === null]).sort()).toEqual([
      ['delivered', 'ACCEPTD', false], ['sent', 'ACCEPTD', true], ['sent', 'ENROUTE', true],
    ]);
    expect(bodies.find((b) => b.message.status === 'delivered')).toEqual(final);
    expect(at('/plain')).toHaveLength(1);
    expect(JSON.parse(at('/plain')[0]!.body)).toMatchObject({ message: { status: 'delivered' }, intermediate_receipt: { detail: 'ENROUTE' } });
  });
});
