// Sender ID requests: an account asks (Sender ID, ABN with its checksum, use), sees its status; the operator reviews
// the queue and approves (registering it to the account, so it sends as it) or rejects with a reason; each step
// is in the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const ABN = '53 004 085 616';
// Unique per run: Sender IDs are registered service-wide, and test files share one database.
const brand = () => `B${Math.random().toString(36).slice(2, 10)}`;
type Json = Record<string, unknown>;

async function actions(accountId: string): Promise<string[]> {
  const found = await rows<{ action: string }>(t.services.db, sql`
    select action from audit_log where account_id = ${accountId} and action like 'sender_id.%' order by created_at, id`);
  return found.map((r) => r.action);
}

describe('Sender ID requests', () => {
  it('asked for, listed as requested, approved by the operator, then usable by that account alone', async () => {
    const a = await createAccount(t.app);
    const other = await createAccount(t.app);
    const name = brand();
    const asked = await call(t.app, a.apiKey, 'POST', '/sender-ids', { sender_id: ` ${name} `, abn: ABN, use_description: 'Booking reminders' });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ sender_id: name, abn: '53004085616', use_description: 'Booking reminders', status: 'requested', reason: null, reviewed_at: null });
    expect((await call(t.app, a.apiKey, 'POST', '/sender-ids', { sender_id: name.toLowerCase(), abn: ABN, use_description: 'again' })).body.code).toBe('conflict');
    // Not usable while requested.
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'hi', sender: name })).body.code).toBe('sender_not_allowed');

    const queue = await admin(t.app, 'GET', '/admin/sender-id-requests?limit=100');
    const mine = (queue.body.requests as Json[]).find((r) => r.id === asked.body.id);
    expect(mine).toMatchObject({ account_id: a.accountId, business_name: expect.any(String), status: 'requested' });

    const approved = await admin(t.app, 'POST', `/admin/sender-id-requests/${asked.body.id as string}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', registration_id: expect.any(String), reviewed_at: expect.stringMatching(/Z$/) });
    expect((await admin(t.app, 'POST', `/admin/sender-id-requests/${asked.body.id as string}/approve`)).status).toBe(409);
    expect((await call(t.app, a.apiKey, 'GET', '/sender-ids')).body.requests).toEqual([expect.objectContaining({ id: asked.body.id, status: 'approved' })]);
    expect((await call(t.app, a.apiKey, 'GET', '/senders')).body.sender_ids).toEqual([name]);
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'hi', sender: name.toUpperCase() });
    expect(sent.status).toBe(200);
    expect((await call(t.app, a.apiKey, 'GET', `/message/${sent.body.message_id as string}`)).body.message).toMatchObject({ sender: name });
    // Another account, even one with the same ABN declared by nobody, gets nothing.
    expect((await call(t.app, other.apiKey, 'POST', '/send', { to: mobile(), message: 'hi', sender: name })).body.code).toBe('sender_not_allowed');
    expect((await admin(t.app, 'GET', `/admin/sender-ids?q=${name}`)).body.sender_ids).toEqual([expect.objectContaining({ sender_id: name, abn: '53004085616', account_id: a.accountId })]);
    expect(await actions(a.accountId)).toEqual(['sender_id.requested', 'sender_id.approved']);
  });

  it('rejected with the reason the account reads; a new request may follow', async () => {
    const a = await createAccount(t.app);
    const name = brand();
    const asked = await call(t.app, a.apiKey, 'POST', '/sender-ids', { sender_id: name, abn: ABN, use_description: 'Promotions' });
    expect((await admin(t.app, 'POST', `/admin/sender-id-requests/${asked.body.id as string}/reject`, { reason: '  ' })).status).toBe(400);
    const rejected = await admin(t.app, 'POST', `/admin/sender-id-requests/${asked.body.id as string}/reject`, { reason: 'Registered to another business' });
    expect(rejected.body).toMatchObject({ status: 'rejected', reason: 'Registered to another business', registration_id: null });
    expect((await admin(t.app, 'POST', `/admin/sender-id-requests/${asked.body.id as string}/approve`)).status).toBe(409);
    expect((await call(t.app, a.apiKey, 'GET', '/sender-ids')).body.requests).toEqual([
      expect.objectContaining({ status: 'rejected', reason: 'Registered to another business', reviewed_at: expect.stringMatching(/Z$/) }),
    ]);
    expect((await call(t.app, a.apiKey, 'GET', '/senders')).body.sender_ids).toEqual([]);
    const rejectedList = await admin(t.app, 'GET', '/admin/sender-id-requests?status=rejected&limit=100');
    expect((rejectedList.body.requests as Json[]).map((r) => r.id)).toContain(asked.body.id);
    expect((await call(t.app, a.apiKey, 'POST', '/sender-ids', { sender_id: name, abn: ABN, use_description: 'Promotions, again' })).status).toBe(201);
    expect(await actions(a.accountId)).toEqual(['sender_id.requested', 'sender_id.rejected', 'sender_id.requested']);
  });

  it('refuses a bad Sender ID, an ABN failing its checksum, a blank use, and an unknown request', async () => {
    const a = await createAccount(t.app);
    const ask = (body: Json) => call(t.app, a.apiKey, 'POST', '/sender-ids', { sender_id: brand(), abn: ABN, use_description: 'x', ...body });
    for (const senderId of ['0412345678', 'AB', 'Café']) {
      expect((await ask({ sender_id: senderId })).body, senderId).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'sender_id' })] });
    }
    expect((await ask({ abn: '53 004 085 617' })).body).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'abn' })] });
    expect((await ask({ abn: '1234567890' })).status).toBe(400);
    expect((await ask({ use_description: '   ' })).body).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'use_description' })] });
    expect((await call(t.app, a.apiKey, 'GET', '/sender-ids')).body.requests).toEqual([]);
    expect((await admin(t.app, 'POST', '/admin/sender-id-requests/018f0000-0000-7000-8000-000000000000/approve')).status).toBe(404);
  });
});
