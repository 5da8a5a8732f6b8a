// Key look-ups are cached for a few seconds (modules/keys/authenticator.ts): a change made through this process is
// exact at once, one made elsewhere arrives by the database's notification (migration 0021), and the cache's TTL
// bounds a change nobody announced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';
import { ACTOR_CACHE_TTL_MS, createAuthenticator } from '../../src/modules/keys/authenticator.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });


describe('cached key look-ups', () => {
  it('a key revoked through the API fails on its next request, though it was just used', async () => {
    const a = await createAccount(t.app);
    const second = await call(t.app, a.apiKey, 'POST', '/keys', { name: 'second' });
    const key = second.body.key as string;
    expect((await call(t.app, key, 'POST', '/send', { to: mobile(), message: 'cached now' })).status).toBe(200);
    expect((await call(t.app, a.apiKey, 'DELETE', `/keys/${second.body.id as string}`)).status).toBe(200);
    expect((await call(t.app, key, 'GET', '/balance')).status).toBe(401);
  });

  it('an account suspended through the operator API cannot send on its next request', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'cached now' })).status).toBe(200);
    expect((await admin(t.app, 'PATCH', `/admin/accounts/${a.accountId}`, { account_status: 'suspended' })).status).toBe(200);
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'refused' })).status).toBe(403);
  });

  it('a change made outside this process (no request here) arrives by notification, well inside the TTL', async () => {
    const a = await createAccount(t.app);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).status).toBe(200);
    await t.services.db.execute(sql`update api_keys set revoked_at = now() where id = ${a.keyId}`);
    // Polled for less than the TTL: an answer that only the TTL brought would come too late.
    const status = await pollUntil(async () => (await call(t.app, a.apiKey, 'GET', '/balance')).status, (s) => s !== 200,
      'the revocation heard', ACTOR_CACHE_TTL_MS - 1000, 20);
    expect(status).toBe(401);
  });

  it('caches an active key until the TTL or a notification, and never an unknown one', async () => {
    let clock = 1_000_000;
    let notify: (payload: string) => void = () => {};
    let listening!: () => void;
    const listened = new Promise<void>((resolve) => { listening = resolve; });
    const authenticate = createAuthenticator(t.services.db, {
      now: () => clock,
      listen: async (_channel, onNotify) => { notify = onNotify; listening(); return async () => {}; },
    });
    await listened;
    const a = await createAccount(t.app);
    expect((await authenticate(a.apiKey))?.accountId).toBe(a.accountId);
    // Revoked behind the cache's back with no notification: still the cached actor, until the TTL.
    await t.services.db.execute(sql`update api_keys set revoked_at = now() where id = ${a.keyId}`);
    expect((await authenticate(a.apiKey))?.accountId).toBe(a.accountId);
    clock += ACTOR_CACHE_TTL_MS;
    expect(await authenticate(a.apiKey)).toBeNull();

    const b = await createAccount(t.app);
    expect((await authenticate(b.apiKey))?.accountId).toBe(b.accountId);
    await t.services.db.execute(sql`update api_keys set revoked_at = now() where id = ${b.keyId}`);
    notify('');
    expect(await authenticate(b.apiKey)).toBeNull();
    // Unknown, then created: not remembered as unknown (revoked rows stay revoked, so use a fresh account's key).
    const c = await createAccount(t.app);
    expect((await authenticate(c.apiKey))?.accountId).toBe(c.accountId);
  });
});
