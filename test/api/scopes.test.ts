import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf, scopeOf } from '../../src/platform/http/route-registry.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const ANY_ID = '018f0000-0000-7000-8000-000000000000';
const SCOPES = ['read', 'send', 'billing', 'manage'] as const;

async function keyFor(accountId: string, scopes: string[]) {
  const res = await admin(t.app, 'POST', `/admin/accounts/${accountId}/keys`, { name: 'scoped', scopes });
  expect(res.status).toBe(201);
  return res.body as { key: string; id: string; scopes: string[] };
}

describe('API key scopes', () => {
  it('gives existing and new keys all four scopes by default', async () => {
    const parent = await createAccount(t.app, { hierarchy: true });
    const sub = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Sub', email: `s-${Date.now()}@example.com` });
    const created = await call(t.app, parent.apiKey, 'POST', `/account/${sub.body.id}/key`);
    expect(created.status).toBe(201);
    expect(created.body.scopes).toEqual(['read', 'send', 'billing', 'manage']);
    const listed = await call(t.app, parent.apiKey, 'GET', `/account/${sub.body.id}/keys`);
    expect(listed.body.keys).toEqual([expect.objectContaining({ id: created.body.id, scopes: ['read', 'send', 'billing', 'manage'] })]);
  });

  it('refuses a route whose scope the key lacks with 403 insufficient_scope, and allows the rest', async () => {
    const acct = await createAccount(t.app, { credits: 5 });
    const { key } = await keyFor(acct.accountId, ['read']);
    expect((await call(t.app, key, 'GET', '/balance')).status).toBe(200);
    const send = await call(t.app, key, 'POST', '/send', { to: '0412345678', message: 'hi' });
    expect(send.status).toBe(403);
    expect(send.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'send', error: expect.stringContaining('send') });
    expect((await call(t.app, acct.apiKey, 'GET', '/balance')).body.credits).toBe(5);
    const sender = await keyFor(acct.accountId, ['send']);
    expect((await call(t.app, sender.key, 'GET', '/balance')).body.code).toBe('insufficient_scope');
  });

  it('checks a declared scope on every keyed route', async () => {
    const keyed = routesOf(t.app).filter((r) => r.auth === 'api_key');
    expect(keyed.length).toBeGreaterThan(40);
    const acct = await createAccount(t.app, { hierarchy: true });
    const keys: Record<string, string> = Object.fromEntries(await Promise.all(SCOPES.map(async (s) =>
      [s, (await keyFor(acct.accountId, SCOPES.filter((x) => x !== s))).key] as const)));
    // No key holds the owner's right, and a signed-in user's own settings refuse every key (403 forbidden).
    keys.owner = (await keyFor(acct.accountId, [...SCOPES])).key;
    for (const { method, url: path, scope } of keyed) {
      expect(scope, `${method} ${path} declares no scope`).not.toBeNull();
      if (scope === 'any') continue;
      const url = path.replace(/:\w+/g, ANY_ID);
      const res = await call(t.app, keys[scope === 'self' ? 'owner' : scope!]!, method as 'GET', url);
      const route = `${method} ${path}`;
      expect(`${route} ${res.status} ${res.body.code}`).toBe(`${route} 403 ${scope === 'self' ? 'forbidden' : 'insufficient_scope'}`);
    }
    expect(scopeOf(t.app, 'POST', '/send')).toBe('send');
    expect(scopeOf(t.app, 'POST', '/account/:id/credits/allocate')).toBe('billing');
    expect(scopeOf(t.app, 'GET', '/report')).toBe('read');
  });

  it('creates sub-account keys with scopes no wider than the calling key', async () => {
    const parent = await createAccount(t.app, { hierarchy: true });
    const sub = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Sub', email: `s-${Date.now()}@example.com` });
    const agentKey = await call(t.app, parent.apiKey, 'POST', `/account/${sub.body.id}/key`, { name: 'agent', scopes: ['send', 'read', 'send'] });
    expect(agentKey.status).toBe(400);
    const created = await call(t.app, parent.apiKey, 'POST', `/account/${sub.body.id}/key`, { name: 'agent', scopes: ['send', 'read'] });
    expect(created.status).toBe(201);
    expect(created.body.scopes).toEqual(['read', 'send']);
    // The agent's key cannot manage; a read+manage key cannot hand out send.
    expect((await call(t.app, created.body.key as string, 'POST', '/accounts', { business_name: 'x' })).body.code).toBe('insufficient_scope');
    const manager = await keyFor(parent.accountId, ['read', 'manage']);
    const wider = await call(t.app, manager.key, 'POST', `/account/${sub.body.id}/key`, { scopes: ['send'] });
    expect(wider.status).toBe(403);
    expect(wider.body.code).toBe('insufficient_scope');
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${sub.body.id}/key`, { scopes: [] })).status).toBe(400);
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${sub.body.id}/key`, { scopes: ['admin'] })).status).toBe(400);
  });
});
