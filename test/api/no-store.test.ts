// Answers that carry a secret are never cached: a new API key, a new account's key and owner invite, a webhook
// signing secret, a two-factor secret. Every JSON answer carries Cache-Control: no-store.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount } from '../support/factories.ts';
import { ownerSession, sessionCall } from '../support/sessions.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

it('secrets and every other JSON answer are sent with Cache-Control: no-store', async () => {
  const acct = await createAccount(t.app);
  const key = await call(t.app, acct.apiKey, 'POST', '/keys', { name: 'ci' });
  expect(key.status).toBe(201);
  expect(key.headers['cache-control']).toBe('no-store');
  const created = await t.app.inject({
    method: 'POST', url: '/admin/accounts', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { business_name: 'Harbour Cafe', email: `o-${randomUUID()}@cafe.test` },
  });
  expect(created.statusCode).toBe(201);
  expect(created.headers['cache-control']).toBe('no-store');
  const webhook = await call(t.app, acct.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://example.com/hook' });
  expect(webhook.headers['cache-control']).toBe('no-store');
  const owner = await ownerSession(t.app, acct);
  const enrol = await sessionCall(t.app, owner, 'POST', '/two-factor/enrol');
  expect(enrol.status).toBe(200);
  expect(enrol.headers['cache-control']).toBe('no-store');
  expect((await call(t.app, acct.apiKey, 'GET', '/balance')).headers['cache-control']).toBe('no-store');
});
