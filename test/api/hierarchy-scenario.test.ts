// The "done when": a parent builds a customer from nothing through the API alone, and the customer sends
// from its own number with its own key, while no key reaches outside its own branch.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

it('a parent builds a sending customer through the API alone', async () => {
  // The operator: a parent with the hierarchy enabled, and a number in the pool.
  const op = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Reseller Pty Ltd', email: 'ops@reseller.test', credits: 100, hierarchy_enabled: true });
  expect(op.status).toBe(201);
  const parentKey = op.body.api_key as string;
  const parentId = op.body.account_id as string;
  const number = mobile();
  expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', price_monthly: 0.99 })).status).toBe(201);

  // The parent, with its key only.
  const created = await call(t.app, parentKey, 'POST', '/accounts', { business_name: 'Corner Bakery', email: 'owner@bakery.test', daily_limit: 500 });
  expect(created.status).toBe(201);
  const customerId = created.body.id as string;
  const funded = await call(t.app, parentKey, 'POST', `/account/${customerId}/credits/allocate`, { amount: 25 });
  expect(funded.body).toMatchObject({ ok: true, credits: 25, parent_credits: 75 });
  const issued = await call(t.app, parentKey, 'POST', `/account/${customerId}/key`, { name: 'Bakery POS' });
  expect(issued.status).toBe(201);
  const customerKey = issued.body.key as string;
  const invited = await call(t.app, parentKey, 'POST', `/account/${customerId}/users`, { email: 'baker@bakery.test', name: 'Baker', can_send: true, can_billing: false });
  expect(invited.status).toBe(201);
  const available = await call(t.app, parentKey, 'GET', '/numbers/available?country=AU&limit=100');
  expect(available.status).toBe(200);
  const bought = await call(t.app, parentKey, 'POST', '/numbers/purchase', { number });
  expect(bought.status).toBe(200);
  // 99 cents a month at 3 cents a credit: 33 credits for the first 30 days.
  expect(bought.body).toMatchObject({ number, credits_charged: 33, credits_remaining: 42 });
  const assigned = await call(t.app, parentKey, 'POST', `/account/${customerId}/numbers/assign`, { numbers: [number] });
  expect(assigned.body).toEqual({ ok: true, assigned: [number] });

  const detail = await call(t.app, parentKey, 'GET', `/account/${customerId}`);
  expect(detail.body.account).toMatchObject({
    business_name: 'Corner Bakery', credits: 25, daily_send_limit: 500, user_count: 2, number_count: 1, parent_account_id: parentId,
  });

  // The customer sends from its number with its own key: named, and by default.
  const to = mobile();
  const named = await call(t.app, customerKey, 'POST', '/send', { to, message: 'Your bread is ready', sender: number });
  expect(named.status).toBe(200);
  const plain = await call(t.app, customerKey, 'POST', '/send', { to, message: 'Still warm' });
  expect(plain.body).toMatchObject({ credits_used: 1, credits_remaining: 23 });
  for (const id of [named.body.message_id, plain.body.message_id]) {
    const got = await call(t.app, customerKey, 'GET', `/message/${id}`);
    expect((got.body.message as { sender: string }).sender).toBe(number);
  }
  // Replies to that number belong to the customer: it is the number's one holder.
  expect((await call(t.app, customerKey, 'GET', '/numbers')).body.numbers).toEqual([expect.objectContaining({ number })]);
  const group = await call(t.app, parentKey, 'GET', '/numbers/group');
  expect(group.body.numbers).toEqual([expect.objectContaining({ number, account_id: customerId, business_name: 'Corner Bakery' })]);

  // No key reaches outside its branch.
  const stranger = await createAccount(t.app, { hierarchy: true, credits: 10 });
  const strangerChild = await call(t.app, stranger.apiKey, 'POST', '/accounts', { business_name: 'Elsewhere' });
  expect((await call(t.app, parentKey, 'GET', `/account/${strangerChild.body.id}`)).status).toBe(404);
  expect((await call(t.app, stranger.apiKey, 'GET', `/account/${customerId}`)).status).toBe(404);
  expect((await call(t.app, stranger.apiKey, 'POST', `/account/${customerId}/credits/recall`, { amount: 1 })).status).toBe(404);
  expect((await call(t.app, customerKey, 'GET', `/account/${parentId}`)).status).toBe(403);
  expect((await call(t.app, customerKey, 'GET', '/accounts')).status).toBe(403);
  expect((await call(t.app, customerKey, 'POST', `/account/${customerId}/credits/allocate`, { amount: 1 })).status).toBe(403);
  expect((await call(t.app, parentKey, 'GET', `/message/${named.body.message_id}`)).status).toBe(404);
  expect((await call(t.app, stranger.apiKey, 'POST', '/send', { to, message: 'x', sender: number })).body.code).toBe('sender_not_allowed');
  expect((await call(t.app, customerKey, 'GET', '/balance')).body.credits).toBe(23);
});
