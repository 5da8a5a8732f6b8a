// /send-batch and its preview with list_id: the list's contacts as recipients, their fields as merge data, opted-out
// ones skipped, and a list beyond 1,000 sent as one campaign, all or nothing, with one debit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const count = async (q: ReturnType<typeof sql>) => (await rows<{ n: number }>(t.services.db, q))[0]!.n;

async function listOf(key: string, csv: string) {
  const list = await call(t.app, key, 'POST', '/lists', { name: 'Everyone' });
  const imported = await call(t.app, key, 'POST', '/contacts/import', { csv, list_id: list.body.id });
  expect(imported.status).toBe(200);
  return list.body.id as string;
}

describe('sending to a list', () => {
  it('merges each contact\'s fields, skips opted-out contacts, and sends beside given recipients', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const [x, y, z, w] = [mobile(), mobile(), mobile(), mobile()];
    const listId = await listOf(a.apiKey, `phone,first_name,clinic\n${x},Ana,Manly\n${y},Ben,\n${z},Zed,Bondi\n`);
    await call(t.app, a.apiKey, 'POST', '/optouts', { number: z });
    const body = { list_id: listId, recipients: [{ phone: w, merge_data: { first_name: 'Wil' } }], message: 'Hi {{first_name}} {{clinic}}' };
    const preview = await call(t.app, a.apiKey, 'POST', '/send-batch/preview', body);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      recipients: [{ phone: w, text: 'Hi Wil ' }, { phone: x, text: 'Hi Ana Manly' }, { phone: y, text: 'Hi Ben ' }],
      opted_out_count: 1, missing_merge_fields: [{ phone: w, fields: ['clinic'] }, { phone: y, fields: ['clinic'] }],
    });
    const sent = await call(t.app, a.apiKey, 'POST', '/send-batch', body);
    expect(sent.body).toMatchObject({ recipients_queued: 3, opted_out_count: 1, credits_used: 3, credits_remaining: 7 });
    // A placeholder no contact has is refused like any other.
    expect((await call(t.app, a.apiKey, 'POST', '/send-batch', { list_id: listId, message: 'Hi {{nmae}}' })).body).toMatchObject({
      code: 'unknown_merge_field', known: expect.arrayContaining(['first_name', 'clinic', 'OptOutLink']),
    });
  });

  it('answers 404 for another account\'s list, and 400 with neither recipients nor list_id', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    const listId = await listOf(b.apiKey, `phone\n${mobile()}\n`);
    expect((await call(t.app, a.apiKey, 'POST', '/send-batch', { list_id: listId, message: 'x' })).status).toBe(404);
    expect((await call(t.app, a.apiKey, 'POST', '/send-batch/preview', { list_id: listId, message: 'x' })).status).toBe(404);
    expect((await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'x' })).body.code).toBe('validation_failed');
  });

  it('sends a list beyond 1,000 as one campaign with one debit, all or nothing, under one Idempotency-Key', async () => {
    const size = 1_200;
    const a = await createAccount(t.app, { credits: size - 1 });
    const numbers = Array.from({ length: size }, () => mobile());
    const listId = await listOf(a.apiKey, `phone\n${numbers.join('\n')}\n`);
    const body = { list_id: listId, message: 'Sale today' };
    // One credit short: 402 before anything is queued.
    const short = await call(t.app, a.apiKey, 'POST', '/send-batch', body, { 'idempotency-key': 'list-send-1' });
    expect(short.status).toBe(402);
    expect(await count(sql`select count(*)::int as n from messages where account_id = ${a.accountId}`)).toBe(0);
    await t.services.db.execute(sql`update accounts set credits = ${size} where id = ${a.accountId}`);
    const sent = await call(t.app, a.apiKey, 'POST', '/send-batch', body, { 'idempotency-key': 'list-send-2' });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ recipients_queued: size, credits_used: size, credits_remaining: 0 });
    const again = await call(t.app, a.apiKey, 'POST', '/send-batch', body, { 'idempotency-key': 'list-send-2' });
    expect(again.body).toEqual(sent.body);
    const campaign = sent.body.campaign_id as string;
    expect(await count(sql`select count(*)::int as n from messages where account_id = ${a.accountId} and campaign_id = ${campaign}`)).toBe(size);
    expect(await count(sql`select count(*)::int as n from messages where account_id = ${a.accountId}`)).toBe(size);
    expect(await count(sql`select count(*)::int as n from credit_ledger where account_id = ${a.accountId} and kind = 'send'`)).toBe(1);
  });
});
