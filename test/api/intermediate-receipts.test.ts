// Non-final receipts (ENROUTE, intermediate notifications) on the real database: kept on the message as
// `intermediate_receipt` without changing its status, never over a final receipt, and sent as message.dlr only to a
// delivery endpoint whose `events` list message.dlr.intermediate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { recordSent } from '../../src/modules/dispatch/dispatch.repo.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { receipt, smscId } from '../support/receipts.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }); });
afterAll(async () => { await t.close(); });

/** A message recorded as sent under a fresh SMSC id, its account's delivery endpoint saved with `events`. */
async function sentMessage(events?: string[]) {
  const a = await createAccount(t.app);
  const put = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://example.com/dlr', ...(events ? { events } : {}) });
  expect(put.status).toBe(200);
  const id = (await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'Hello' })).body.message_id as string;
  const smsc = smscId();
  expect((await recordSent(t.services.db, [{ id, claim: null, smscMessageId: smsc, sentAt: new Date() }])).has(id)).toBe(true);
  return { a, id, smsc };
}

const view = async (key: string, id: string) => (await call(t.app, key, 'GET', `/message/${id}`)).body;
const events = (accountId: string) => rows<{ event: string; body: string }>(t.services.db, sql`
  select event, body from webhook_deliveries where account_id = ${accountId} order by id`);
const enroute = (id: string, detail = 'ENROUTE') => receipt(id, { state: 'enroute', final: false, errorCode: '000', detail });

describe('intermediate receipts', () => {
  it('are kept on a sent message with their detail; the status stays sent; no event for an endpoint that did not ask', async () => {
    const { a, id, smsc } = await sentMessage();
    await t.services.receipts.onReceipt(enroute(smsc));
    expect(await view(a.apiKey, id)).toMatchObject({
      message: { status: 'sent' }, delivery_receipt: null,
      intermediate_receipt: { status: 'enroute', detail: 'ENROUTE', error_code: null, received_at: expect.stringMatching(/Z$/) },
    });
    expect(await events(a.accountId)).toHaveLength(0);
    expect((await call(t.app, a.apiKey, 'GET', '/webhooks')).body.delivery_receipt).toMatchObject({ events: ['message.dlr'] });
  });

  it('go as message.dlr, with the GET /message body, to an endpoint whose events ask; a repeat sends nothing more', async () => {
    const { a, id, smsc } = await sentMessage(['message.dlr', 'message.dlr.intermediate']);
    expect((await call(t.app, a.apiKey, 'GET', '/webhooks')).body.delivery_receipt).toMatchObject({ events: ['message.dlr', 'message.dlr.intermediate'] });
    await t.services.receipts.onReceipt(enroute(smsc));
    await t.services.receipts.onReceipt(enroute(smsc));
    const first = await events(a.accountId);
    expect(first).toHaveLength(1);
    expect(first[0]!.event).toBe('message.dlr');
    expect(JSON.parse(first[0]!.body)).toEqual(await view(a.apiKey, id));
    // Another state is news: recorded and sent again.
    await t.services.receipts.onReceipt(enroute(smsc, 'ACCEPTD'));
    expect(await events(a.accountId)).toHaveLength(2);
    expect((await view(a.apiKey, id)).intermediate_receipt).toMatchObject({ detail: 'ACCEPTD' });
  });

  it('never overwrite a final receipt nor move the message back; the final one keeps the last intermediate beside it', async () => {
    const { a, id, smsc } = await sentMessage(['message.dlr', 'message.dlr.intermediate']);
    await t.services.receipts.onReceipt(enroute(smsc));
    await t.services.receipts.onReceipt(receipt(smsc));
    const final = await view(a.apiKey, id);
    expect(final).toMatchObject({
      message: { status: 'delivered' }, delivery_receipt: { status: 'delivered' }, intermediate_receipt: { detail: 'ENROUTE' },
    });
    await t.services.receipts.onReceipt(enroute(smsc, 'BUFFRED'));
    expect(await view(a.apiKey, id)).toEqual(final);
    const recorded = await events(a.accountId);
    expect(recorded).toHaveLength(2);
    expect(JSON.parse(recorded[1]!.body)).toEqual(final);
  });

  it('are offered on the delivery endpoint only', async () => {
    const a = await createAccount(t.app);
    const put = await call(t.app, a.apiKey, 'PUT', '/webhooks/inbound', { url: 'https://example.com/mo', events: ['message.dlr.intermediate'] });
    expect(put.status).toBe(400);
    expect(put.body.code).toBe('validation_failed');
  });
});
