// One call per method of the official client libraries, with the request shapes they send (recipients as plain
// strings, link_tracking, label, bodyless POSTs), checking the response fields they read.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
// A database of its own: /status reads the service-wide queue age, which other files' backlogs raise under load.
beforeAll(async () => { t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { ownDatabase: true }); });
afterAll(async () => { await t?.close(); });

type Json = Record<string, unknown>;

it('every library method works against Tasman with only the base URL changed', async () => {
  const parent = await createAccount(t.app, { credits: 200, hierarchy: true });
  const key = parent.apiKey;
  const ok = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await call(t.app, key, method, url, body, headers);
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };

  // status()
  expect(await ok('GET', '/status')).toMatchObject({ status: 'operational', services: { outbound: 'operational', inbound: 'operational', delivery_receipts: 'operational' } });
  // send(), with the fields the libraries add
  const idem = randomUUID();
  const sent = await ok('POST', '/send', { to: mobile(), message: 'Hi from {{SendingNumber}}', link_tracking: true }, { 'idempotency-key': idem });
  expect(sent).toMatchObject({ message_id: expect.any(String), credits_used: 1, credits_remaining: 199 });
  // sendBatch() with the READMEs' recipients ({to, name}) and single-brace fields
  const readme = await ok('POST', '/send-batch/preview', { recipients: [{ to: '0412 555 101', name: 'Ana' }, { to: '0412 555 102', name: 'Ben' }], message: 'Hi {name}' });
  expect((readme.recipients as Json[]).map((r) => r.text)).toEqual(['Hi Ana', 'Hi Ben']);
  // sendBatch() with plain-string recipients
  const batch = await ok('POST', '/send-batch', { recipients: [mobile(), mobile()], message: 'Batch', link_tracking: false });
  expect(batch).toMatchObject({ campaign_id: expect.any(String), recipients_queued: 2, invalid_numbers: [], opted_out_count: 0 });
  // message(): by id and by idempotency key
  const byId = await ok('GET', `/message/${String(sent.message_id)}`);
  expect(await ok('GET', `/message/${idem}`)).toEqual(byId);
  expect(byId.message).toMatchObject({ id: sent.message_id, status: 'queued' });
  // campaign()
  expect((await ok('GET', `/campaign/${String(batch.campaign_id)}`)).campaign).toMatchObject({ id: batch.campaign_id, scheduled_at: null });
  // inbox(), optouts(), balance()
  expect(await ok('GET', '/inbox?limit=10')).toMatchObject({ messages: [], total: 0, limit: 10, offset: 0 });
  expect(await ok('GET', '/optouts')).toMatchObject({ optouts: [] });
  expect(await ok('GET', '/balance')).toEqual({ credits: 197 });

  // Accounts
  const created = await ok('POST', '/accounts', { business_name: 'Sub Co', email: `sub-${randomUUID()}@example.com`, managed_by_parent: true, seed_credits: 10 });
  const sub = created.id as string;
  // The PHP and .NET libraries read created.account.id.
  expect(created).toMatchObject({ account_id: sub, account: { id: sub, business_name: 'Sub Co', credits: 10, parent_account_id: parent.accountId } });
  const accounts = (await ok('GET', '/accounts')).accounts as Json[];
  expect(accounts[0]).toMatchObject({ id: parent.accountId, parent_account_id: null });
  expect(accounts.map((a) => a.id)).toContain(sub);
  expect((await ok('GET', `/account/${sub}`)).account).toMatchObject({ id: sub, sending_number: null, default_sender_id_value: null });
  await ok('PATCH', `/account/${sub}`, { daily_limit: 100 });
  expect(await ok('GET', `/account/${sub}/balance`)).toEqual({ credits: 10 });
  await ok('POST', `/account/${sub}/credits/allocate`, { amount: 5 });
  await ok('POST', `/account/${sub}/credits/recall`, { amount: 2 });
  // Keys
  const newKey = await ok('POST', `/account/${sub}/key`, { name: 'server' });
  expect(newKey).toMatchObject({ id: expect.any(String), key: expect.any(String), prefix: expect.any(String) });
  expect((await ok('GET', `/account/${sub}/keys`)).keys).toEqual([expect.objectContaining({ id: newKey.id, revoked_at: null })]);
  await ok('DELETE', `/account/${sub}/key/${String(newKey.id)}`);
  // Users and access
  const invited = await ok('POST', `/account/${sub}/users`, { email: `u-${randomUUID()}@example.com`, name: 'U', can_send: true, can_billing: false });
  const member = (invited.user as Json).id as string;
  // The sub-account was created with an email, whose owner is invited with it; the new member is beside them.
  expect(((await ok('GET', `/account/${sub}/users`)).users as Json[]).map((u) => u.id)).toContain(member);
  await ok('DELETE', `/account/${sub}/users/${member}`);
  expect(await ok('GET', `/account/${sub}/access`)).toMatchObject({ managed_by_parent: true });
  await ok('PUT', `/account/${sub}/access`, { managed_by_parent: true, team_access_from_parent: true });
  await ok('GET', '/team');
  // Numbers, with a label
  const number = mobile();
  expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', price_monthly: 0.3 })).status).toBe(201);
  await ok('GET', '/numbers/available?country=AU');
  const bought = await ok('POST', '/numbers/purchase', { number, label: 'Support line' });
  expect(bought).toMatchObject({ ok: true, number, number_id: expect.any(String), label: 'Support line', status: 'active', billing_reference: null });
  expect((await ok('GET', '/numbers')).numbers).toEqual([expect.objectContaining({ number, label: 'Support line', assigned_to: parent.accountId })]);
  await ok('POST', `/account/${sub}/numbers/assign`, { numbers: [number] });
  expect((await ok('GET', `/account/${sub}/numbers`)).numbers).toEqual([expect.objectContaining({ number, label: 'Support line', assigned_to: sub })]);
  expect((await ok('GET', '/numbers/group')).numbers).toEqual(expect.arrayContaining([expect.objectContaining({ number, label: 'Support line' })]));
  await ok('POST', `/account/${sub}/numbers/recall`, { numbers: [number] });
  // Webhooks: PUT returns the secret once
  const dlr = await ok('PUT', '/webhooks/delivery', { url: 'http://127.0.0.1:9/dlr', enabled: true });
  expect(dlr.delivery_receipt).toMatchObject({ signing_enabled: true, secret: expect.stringMatching(/^whsec_/) });
  const inbound = await ok('PUT', '/webhooks/inbound', { url: 'http://127.0.0.1:9/in', enabled: true });
  expect(inbound.inbound).toMatchObject({ secret: expect.stringMatching(/^whsec_/) });
  expect(await ok('GET', '/webhooks')).toMatchObject({ delivery_receipt: { signing_enabled: true }, inbound: { signing_enabled: true } });
  expect(await ok('POST', '/webhooks/delivery')).toEqual({ secret: expect.stringMatching(/^whsec_/) });
  expect(await ok('POST', '/webhooks/inbound')).toEqual({ secret: expect.stringMatching(/^whsec_/) });
  // The three reports
  expect(await ok('GET', '/report')).toMatchObject({ account_id: parent.accountId, summary: { messages: { total: 3 } } });
  expect(await ok('GET', `/account/${sub}/report`)).toMatchObject({ account_id: sub });
  const group = await ok('GET', '/report/group');
  expect((group.accounts as Json[])[0]).toMatchObject({ account_id: parent.accountId, messages: { total: 3 }, inbound: 0, optouts: 0 });
  // Closing the sub-account
  expect(await ok('DELETE', `/account/${sub}`)).toMatchObject({ ok: true, scheduled_for_deletion: false });
});
