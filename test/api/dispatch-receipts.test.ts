// The receipt service on the real database: applying final receipts once, ignoring non-final ones, the
// message.dlr outbox event, concatenated messages, and receipts that overtake their submit response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { recordSent } from '../../src/modules/dispatch/dispatch.repo.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { receipt, smscId } from '../support/receipts.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });


/** A message accepted by the API and recorded as sent under the given SMSC id(s), as the dispatcher would. */
async function sentMessage(ids: string[] = [smscId()], message = 'Hello') {
  const a = await createAccount(t.app);
  await t.services.db.execute(sql`
    insert into webhook_endpoints (account_id, kind, url) values (${a.accountId}, 'delivery_receipt', 'https://example.com/dlr')`);
  const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message });
  const id = sent.body.message_id as string;
  const recorded = await recordSent(t.services.db, [{
    id, claim: null, smscMessageId: ids[0]!, sentAt: new Date(), ...(ids.length > 1 ? { segmentIds: ids } : {}),
  }]);
  expect(recorded.has(id)).toBe(true);
  return { a, id, ids };
}

const view = async (key: string, id: string) => (await call(t.app, key, 'GET', `/message/${id}`)).body;
const events = (accountId: string) => rows<{ event: string; message_id: string; body: string }>(t.services.db, sql`
  select event, message_id, body from webhook_deliveries where account_id = ${accountId}`);

describe('receipts', () => {
  it('a final receipt sets status and delivery_receipt, and records message.dlr with the GET /message body', async () => {
    const { a, id, ids } = await sentMessage();
    await t.services.receipts.onReceipt(receipt(ids[0]!, { state: 'undelivered', errorCode: '001' }));
    const got = await view(a.apiKey, id);
    expect(got).toMatchObject({
      message: { id, status: 'failed' },
      delivery_receipt: { status: 'undelivered', received_at: expect.stringMatching(/Z$/), error_code: '001' },
    });
    const recorded = await events(a.accountId);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ event: 'message.dlr', message_id: id });
    expect(got.links).toEqual([]);
    expect(JSON.parse(recorded[0]!.body)).toEqual(got);
  });

  it('a repeated receipt changes nothing', async () => {
    const { a, id, ids } = await sentMessage();
    await t.services.receipts.onReceipt(receipt(ids[0]!));
    const first = await view(a.apiKey, id);
    await t.services.receipts.onReceipt(receipt(ids[0]!, { state: 'expired' }));
    expect(await view(a.apiKey, id)).toEqual(first);
    expect(await events(a.accountId)).toHaveLength(1);
  });

  it('ENROUTE leaves the status and delivery_receipt alone (intermediate-receipts.test.ts has the rest)', async () => {
    const { a, id, ids } = await sentMessage();
    await t.services.receipts.onReceipt(receipt(ids[0]!, { state: 'enroute', final: false }));
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'sent' }, delivery_receipt: null, intermediate_receipt: { status: 'enroute' } });
    expect(await events(a.accountId)).toHaveLength(0);
  });

  it('ACCEPTD is final: unknown, error_code ACCEPTD, with its message.dlr', async () => {
    const { a, id, ids } = await sentMessage();
    await t.services.receipts.onReceipt(receipt(ids[0]!, { state: 'accepted', final: true }));
    expect(await view(a.apiKey, id)).toMatchObject({
      message: { status: 'failed' }, delivery_receipt: { status: 'unknown', error_code: 'ACCEPTD' },
    });
    expect(await events(a.accountId)).toHaveLength(1);
  });

  it('a concatenated message is delivered only when every segment is', async () => {
    const { a, id, ids } = await sentMessage([smscId(), smscId(), smscId()], 'x'.repeat(400));
    await t.services.receipts.onReceipt(receipt(ids[2]!));
    await t.services.receipts.onReceipt(receipt(ids[0]!));
    expect((await view(a.apiKey, id)).message).toMatchObject({ status: 'sent' });
    await t.services.receipts.onReceipt(receipt(ids[1]!));
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'delivered' }, delivery_receipt: { status: 'delivered', error_code: null } });
    expect(await events(a.accountId)).toHaveLength(1);
  });

  it('one failed segment fails the concatenated message', async () => {
    const { a, id, ids } = await sentMessage([smscId(), smscId()], 'x'.repeat(300));
    await t.services.receipts.onReceipt(receipt(ids[1]!, { state: 'expired', errorCode: '027' }));
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'failed' }, delivery_receipt: { status: 'expired', error_code: '027' } });
    await t.services.receipts.onReceipt(receipt(ids[0]!));
    expect((await view(a.apiKey, id)).message).toMatchObject({ status: 'failed' });
  });

  it('a receipt before the submit response is parked, and applied once the id is recorded', async () => {
    const a = await createAccount(t.app);
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'early bird' });
    const id = sent.body.message_id as string;
    const smsc = smscId();
    const arrived = new Date(Date.now() - 1000);
    await t.services.receipts.onReceipt(receipt(smsc));
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'queued' }, delivery_receipt: null });
    const parked = await rows<{ receipt: unknown }>(t.services.db, sql`select receipt from pending_receipts where smsc_message_id = ${smsc}`);
    expect(parked).toEqual([{ receipt: { state: 'delivered', errorCode: null } }]);

    await recordSent(t.services.db, [{ id, claim: null, smscMessageId: smsc, sentAt: arrived }]);
    // The app's periodic sweep (every 30 s) may take the parked row in the instant after recordSent; then this
    // call finds it gone (0). Either way it is applied once, which the lines below check.
    expect([0, 1]).toContain(await t.services.receipts.resolveParked([smsc, smscId()]));
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'delivered' }, delivery_receipt: { status: 'delivered' } });
    expect(await rows(t.services.db, sql`select 1 from pending_receipts where smsc_message_id = ${smsc}`)).toHaveLength(0);
    // Resolving again finds nothing left to do.
    expect(await t.services.receipts.resolveParked([smsc])).toBe(0);
  });

  it('a parked receipt the dispatcher did not resolve is applied by the periodic sweep', async () => {
    const a = await createAccount(t.app);
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'swept' });
    const id = sent.body.message_id as string;
    const smsc = smscId();
    await t.services.receipts.onReceipt(receipt(smsc, { state: 'undelivered', errorCode: '001' }));
    // Recorded by a path that does not look for parked receipts (as if that process died right after its commit).
    await recordSent(t.services.db, [{ id, claim: null, smscMessageId: smsc, sentAt: new Date() }]);
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'sent' } });
    expect(await t.services.receipts.sweepParked(100_000)).toBeGreaterThanOrEqual(1);
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'failed' }, delivery_receipt: { status: 'undelivered' } });
    expect(await rows(t.services.db, sql`select 1 from pending_receipts where smsc_message_id = ${smsc}`)).toHaveLength(0);
  });

  it('a receipt for an id nobody sent stays parked and does not touch any message', async () => {
    const smsc = smscId();
    await t.services.receipts.onReceipt(receipt(smsc));
    await t.services.receipts.onReceipt(receipt(smsc));
    const parked = await rows(t.services.db, sql`select 1 from pending_receipts where smsc_message_id = ${smsc}`);
    expect(parked).toHaveLength(1);
  });
});
