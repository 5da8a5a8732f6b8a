// Suspension reaches the whole subtree, and a suspended account can read but not change anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

async function family() {
  const parent = await createAccount(t.app, { hierarchy: true, credits: 100 });
  const created = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Sub', email: 'sub@example.com', seed_credits: 20 });
  const subId = created.body.id as string;
  const subKey = (await call(t.app, parent.apiKey, 'POST', `/account/${subId}/key`, { name: 'k' })).body.key as string;
  return { parent, subId, subKey };
}

const suspend = (id: string, status: 'suspended' | 'active') => admin(t.app, 'PATCH', `/admin/accounts/${id}`, { account_status: status });

function expectSuspended(res: { status: number; body: Record<string, unknown> }) {
  expect(res.status).toBe(403);
  expect(res.body.code).toBe('forbidden');
  expect(String(res.body.error)).toContain('suspended');
}

describe('a suspended parent', () => {
  it('stops its sub-accounts sending, and may read but not create, issue keys, move credits or invite', async () => {
    const { parent, subId, subKey } = await family();
    expect((await call(t.app, subKey, 'POST', '/send', { to: mobile(), message: 'before' })).status).toBe(200);
    expect((await suspend(parent.accountId, 'suspended')).status).toBe(200);

    expectSuspended(await call(t.app, subKey, 'POST', '/send', { to: mobile(), message: 'after' }));
    expectSuspended(await call(t.app, subKey, 'POST', '/send-batch', { recipients: [mobile()], message: 'after' }));
    expect((await call(t.app, subKey, 'GET', '/balance')).body.credits).toBe(19);

    for (const url of ['/accounts', `/account/${subId}`, `/account/${subId}/balance`, `/account/${subId}/keys`, '/balance']) {
      expect((await call(t.app, parent.apiKey, 'GET', url)).status, url).toBe(200);
    }
    expectSuspended(await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Another', email: 'a@example.com' }));
    expectSuspended(await call(t.app, parent.apiKey, 'POST', `/account/${subId}/key`, { name: 'more' }));
    expectSuspended(await call(t.app, parent.apiKey, 'POST', `/account/${subId}/credits/allocate`, { amount: 5 }));
    expectSuspended(await call(t.app, parent.apiKey, 'POST', `/account/${subId}/credits/recall`, { amount: 5 }));
    expectSuspended(await call(t.app, parent.apiKey, 'POST', `/account/${subId}/users`, { email: 'staff@example.com' }));
    expectSuspended(await call(t.app, parent.apiKey, 'POST', '/send', { to: mobile(), message: 'x' }));
    expect((await call(t.app, parent.apiKey, 'GET', '/balance')).body.credits).toBe(80);

    expect((await suspend(parent.accountId, 'active')).status).toBe(200);
    expect((await call(t.app, subKey, 'POST', '/send', { to: mobile(), message: 'again' })).status).toBe(200);
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${subId}/credits/allocate`, { amount: 5 })).status).toBe(200);
  });

  it('a suspended sub-account stops alone: its parent carries on', async () => {
    const { parent, subId, subKey } = await family();
    await suspend(subId, 'suspended');
    expectSuspended(await call(t.app, subKey, 'POST', '/send', { to: mobile(), message: 'x' }));
    expect((await call(t.app, parent.apiKey, 'POST', '/send', { to: mobile(), message: 'x' })).status).toBe(200);
    expect((await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Another', email: 'b@example.com' })).status).toBe(201);
  });
});
