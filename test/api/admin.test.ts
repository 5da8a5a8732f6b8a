import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

describe('operator API', () => {
  it('refuses a missing or wrong operator token, and tenant keys', async () => {
    const a = await createAccount(t.app);
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${a.apiKey}` }]) {
      const res = await t.app.inject({ method: 'POST', url: '/admin/accounts', headers, payload: { business_name: 'X', email: 'x@example.com' } });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
  });

  it('creates an account with the 5-credit grant, a working key and a ledger row', async () => {
    const res = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Kiwi Ltd', email: 'k@example.nz', abn: '51 824 753 556' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ account_id: expect.any(String), api_key: expect.stringMatching(/^tsm_[0-9A-Za-z]{32}$/), key_id: expect.any(String), credits: 5,
      owner_invite_url: expect.stringMatching(/\/app\/invite#[\w-]{43}$/),
    });
    expect((await call(t.app, res.body.api_key as string, 'GET', '/balance')).body).toEqual({ credits: 5 });
    const read = await admin(t.app, 'GET', `/admin/accounts/${res.body.account_id}`);
    expect(read.body).toMatchObject({ business_name: 'Kiwi Ltd', abn: '51824753556', credits: 5, hierarchy_enabled: false, account_status: 'active', active_keys: 1 });
  });

  it('validates the body', async () => {
    for (const body of [{ business_name: 'X' }, { business_name: '', email: 'x@example.com' }, { business_name: 'X', email: 'not-an-email' }, { business_name: 'X', email: 'x@example.com', abn: '123' }, { business_name: 'X', email: 'x@example.com', credits: -1 }]) {
      const res = await admin(t.app, 'POST', '/admin/accounts', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('adds and removes credits, never below zero', async () => {
    const a = await createAccount(t.app);
    expect((await admin(t.app, 'POST', `/admin/accounts/${a.accountId}/credits`, { amount: 10 })).body).toEqual({ account_id: a.accountId, credits: 15 });
    expect((await admin(t.app, 'POST', `/admin/accounts/${a.accountId}/credits`, { amount: -15 })).body.credits).toBe(0);
    const under = await admin(t.app, 'POST', `/admin/accounts/${a.accountId}/credits`, { amount: -1 });
    expect(under.status).toBe(402);
    expect((await admin(t.app, 'POST', `/admin/accounts/${a.accountId}/credits`, { amount: 0 })).status).toBe(400);
    expect((await admin(t.app, 'POST', '/admin/accounts/01a1fc97-f1e8-765e-92c4-fdeb302ed871/credits', { amount: 1 })).status).toBe(404);
  });

  it('issues keys shown once and revokes them at once', async () => {
    const a = await createAccount(t.app);
    const key = await admin(t.app, 'POST', `/admin/accounts/${a.accountId}/keys`, { name: 'CI' });
    expect(key.status).toBe(201);
    expect(key.body).toMatchObject({ name: 'CI', key: expect.stringMatching(/^tsm_/), prefix: (key.body.key as string).slice(0, 12) });
    expect((await call(t.app, key.body.key as string, 'GET', '/balance')).status).toBe(200);
    expect((await admin(t.app, 'DELETE', `/admin/accounts/${a.accountId}/keys/${key.body.id}`)).status).toBe(200);
    expect((await call(t.app, key.body.key as string, 'GET', '/balance')).status).toBe(401);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).status).toBe(200);
    const other = await createAccount(t.app);
    expect((await admin(t.app, 'DELETE', `/admin/accounts/${other.accountId}/keys/${a.keyId}`)).status).toBe(404);
  });

  it('suspends an account: it reads but cannot send', async () => {
    const a = await createAccount(t.app);
    expect((await admin(t.app, 'PATCH', `/admin/accounts/${a.accountId}`, { account_status: 'suspended' })).status).toBe(200);
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x' });
    expect(res.status).toBe(403);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).status).toBe(200);
    await admin(t.app, 'PATCH', `/admin/accounts/${a.accountId}`, { account_status: 'active' });
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x' })).status).toBe(200);
  });

  it('registers Sender IDs and pool numbers, refusing duplicates and bad values', async () => {
    const abn = '53004085616';
    const name = `S${Date.now().toString(36).slice(-6)}`;
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: name, abn })).status).toBe(201);
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: name.toLowerCase(), abn })).status).toBe(409);
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: '12345', abn })).status).toBe(400);
    const number = mobile();
    expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', price_monthly: 9.5 })).body).toMatchObject({ number, country: 'AU', price_monthly: 9.5, account_id: null });
    expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU' })).status).toBe(409);
    expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'NZ' })).status).toBe(400);
  });
});
