import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

describe('SMPP credentials', () => {
  it('issues a system_id and password once, lists it without the password, and revokes it', async () => {
    const acct = await createAccount(t.app);
    const created = await call(t.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'platform', allowed_ips: [' 203.0.113.0/24', '::1'], max_binds: 3, tps: 25 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'platform', allowed_ips: ['203.0.113.0/24', '::1'], max_binds: 3, tps: 25 });
    expect(created.body.system_id).toMatch(/^tsm[0-9a-z]{10}$/);
    expect(created.body.password).toMatch(/^[0-9A-Za-z]{8}$/);
    const [stored] = await rows<{ password_hash: string }>(t.services.db, sql`select password_hash from smpp_credentials where id = ${created.body.id as string}`);
    expect(stored!.password_hash).not.toContain(created.body.password as string);

    const listed = await call(t.app, acct.apiKey, 'GET', '/smpp-credentials');
    expect(listed.status).toBe(200);
    const [one] = listed.body.credentials as Array<Record<string, unknown>>;
    expect(one).toMatchObject({ id: created.body.id, system_id: created.body.system_id, revoked_at: null, last_bound_at: null });
    expect(one).not.toHaveProperty('password');
    expect(JSON.stringify(listed.body)).not.toContain(created.body.password as string);

    expect((await call(t.app, acct.apiKey, 'DELETE', `/smpp-credentials/${created.body.id as string}`)).status).toBe(200);
    expect((await call(t.app, acct.apiKey, 'DELETE', `/smpp-credentials/${created.body.id as string}`)).status).toBe(200);
    const after = await call(t.app, acct.apiKey, 'GET', '/smpp-credentials');
    expect((after.body.credentials as Array<{ revoked_at: string | null }>)[0]!.revoked_at).not.toBeNull();

    const audit = await call(t.app, acct.apiKey, 'GET', '/audit?action=smpp_credential');
    const actions = (audit.body.entries as Array<{ action: string; after: Record<string, unknown> | null }>).map((e) => e.action);
    expect(actions.sort()).toEqual(['smpp_credential.created', 'smpp_credential.revoked']);
    expect(JSON.stringify(audit.body)).not.toContain(created.body.password as string);
  });

  it('defaults the limits, refuses a bad CIDR block, and keeps accounts apart', async () => {
    const acct = await createAccount(t.app);
    const other = await createAccount(t.app);
    const plain = await call(t.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'plain' });
    expect(plain.body).toMatchObject({ allowed_ips: [], max_binds: 2, tps: 10 });
    const bad = await call(t.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'bad', allowed_ips: ['10.0.0.0/8', '10.0.0.0/40'] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect((await call(t.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'x', tps: 0 })).status).toBe(400);
    expect((await call(t.app, other.apiKey, 'DELETE', `/smpp-credentials/${plain.body.id as string}`)).status).toBe(404);
    expect((await call(t.app, other.apiKey, 'GET', '/smpp-credentials')).body.credentials).toEqual([]);
  });

  it('is issued only by a caller that may send, since the credential sends', async () => {
    const acct = await createAccount(t.app);
    const manager = await call(t.app, acct.apiKey, 'POST', '/keys', { name: 'manage only', scopes: ['read', 'manage'] });
    const refused = await call(t.app, manager.body.key as string, 'POST', '/smpp-credentials', { name: 'nope' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('insufficient_scope');
  });
});
