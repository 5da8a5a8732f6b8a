// The authorization matrix: every account route, against every relationship between the caller and the target.
// A parent reaches only its own open sub-accounts; everything else is 404 (never saying why), 403 when the caller
// has no hierarchy flag, 401 when its key is revoked or its account closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, type TestAccount } from '../support/factories.ts';
import { furnishedFamily as furnish, hierarchyRoutes, type Route, type Target } from '../support/hierarchy-routes.ts';

const furnishedFamily = () => furnish(t.app);

// Built before the suites are collected: the routes come from its registry.
const t: TestApp = await createTestApp();
const routes = hierarchyRoutes(t.app);

const send = (key: string, route: Route, x: Target) => call(t.app, key, route.method, route.url(x), route.payload?.(x));

// The world the refusals run against, built once: nothing in it may change, which the last test checks.
let p: Awaited<ReturnType<typeof furnishedFamily>>;
let sibling: TestAccount & { target: Target };
let stranger: Awaited<ReturnType<typeof furnishedFamily>>;
let unflagged: Awaited<ReturnType<typeof furnishedFamily>>;
let revoked: Awaited<ReturnType<typeof furnishedFamily>>;
let closed: Awaited<ReturnType<typeof furnishedFamily>>;
let parentAsTarget: Target;

beforeAll(async () => {
  p = await furnishedFamily();
  const sib = await call(t.app, p.parent.apiKey, 'POST', '/accounts', { business_name: 'Sibling', seed_credits: 10 });
  const sibKey = await call(t.app, p.parent.apiKey, 'POST', `/account/${sib.body.id}/key`, { name: 'k' });
  // The operator gives the sibling the flag, so its refusals come from the branch rule, not the flag check.
  await admin(t.app, 'PATCH', `/admin/accounts/${sib.body.id}`, { hierarchy_enabled: true });
  sibling = {
    accountId: sib.body.id as string, apiKey: sibKey.body.key as string, keyId: sibKey.body.id as string,
    target: { ...p.target, id: sib.body.id as string, keyId: sibKey.body.id as string },
  };
  parentAsTarget = { ...p.target, id: p.parent.accountId, keyId: p.parent.keyId };
  stranger = await furnishedFamily();
  unflagged = await furnishedFamily();
  await admin(t.app, 'PATCH', `/admin/accounts/${unflagged.parent.accountId}`, { hierarchy_enabled: false });
  revoked = await furnishedFamily();
  await admin(t.app, 'DELETE', `/admin/accounts/${revoked.parent.accountId}/keys/${revoked.parent.keyId}`);
  closed = await furnishedFamily();
  await call(t.app, closed.parent.apiKey, 'DELETE', `/account/${closed.child.accountId}`);
});
afterAll(async () => { await t.close(); });

describe.each(routes)('$method $name', (route) => {
  it('parent on its own sub-account: allowed', async () => {
    const fresh = await furnishedFamily();
    const res = await send(fresh.parent.apiKey, route, fresh.target);
    expect(res.status, JSON.stringify(res.body)).toBe(route.ok);
  });

  it('parent on a stranger\'s sub-account: 404, the same body as a missing id', async () => {
    const res = await send(p.parent.apiKey, route, stranger.target);
    expect(res.status).toBe(404);
    const missing = await send(p.parent.apiKey, route, { ...stranger.target, id: randomUUID() });
    expect(res.body).toEqual(missing.body);
  });

  it('parent on itself through the sub-account path: 404', async () => {
    expect((await send(p.parent.apiKey, route, parentAsTarget)).status).toBe(404);
  });

  it('sub-account on its parent: 403 hierarchy_not_enabled without the flag, 404 with it', async () => {
    const res = await send(p.child.apiKey, route, parentAsTarget);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('hierarchy_not_enabled');
    expect((await send(sibling.apiKey, route, parentAsTarget)).status).toBe(404);
  });

  it('sub-account on its sibling: 404 (403 without the flag)', async () => {
    expect((await send(sibling.apiKey, route, p.target)).status).toBe(404);
    expect((await send(p.child.apiKey, route, sibling.target)).body.code).toBe('hierarchy_not_enabled');
  });

  it('parent on its closed sub-account: 404 (history reads: allowed); the closed account\'s key: 401', async () => {
    expect((await send(closed.parent.apiKey, route, closed.target)).status).toBe(route.closedReadable ? route.ok : 404);
    expect((await send(closed.child.apiKey, route, closed.target)).status).toBe(401);
  });

  it('parent without the hierarchy flag: 403 hierarchy_not_enabled', async () => {
    const res = await send(unflagged.parent.apiKey, route, unflagged.target);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('hierarchy_not_enabled');
  });

  it('a revoked key: 401', async () => {
    expect((await send(revoked.parent.apiKey, route, revoked.target)).status).toBe(401);
  });
});

describe('sub-ids of another account', () => {
  it('a sibling\'s key or member id through the own sub-account\'s path: 404, and nothing changes', async () => {
    const fam = await furnishedFamily();
    const other = await call(t.app, fam.parent.apiKey, 'POST', '/accounts', { business_name: 'Other' });
    const otherKey = await call(t.app, fam.parent.apiKey, 'POST', `/account/${other.body.id}/key`, { name: 'k' });
    const otherMember = await call(t.app, fam.parent.apiKey, 'POST', `/account/${other.body.id}/users`, { email: 'o@x.test' });
    expect((await call(t.app, fam.parent.apiKey, 'DELETE', `/account/${fam.child.accountId}/key/${otherKey.body.id}`)).status).toBe(404);
    expect((await call(t.app, fam.parent.apiKey, 'DELETE', `/account/${fam.child.accountId}/users/${(otherMember.body.user as { id: string }).id}`)).status).toBe(404);
    expect((await call(t.app, otherKey.body.key as string, 'GET', '/balance')).status).toBe(200);
    expect((await call(t.app, fam.parent.apiKey, 'GET', `/account/${other.body.id}/users`)).body.users).toHaveLength(1);
  });
});

describe('flag-only routes', () => {
  it.each([
    ['GET', '/accounts'], ['POST', '/accounts'], ['GET', '/numbers/group'],
  ] as const)('%s %s: 403 hierarchy_not_enabled without the flag', async (method, url) => {
    for (const key of [unflagged.parent.apiKey, p.child.apiKey]) {
      const res = await call(t.app, key, method, url, method === 'POST' ? { business_name: 'x' } : undefined);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('hierarchy_not_enabled');
    }
  });
});

describe('after every refusal above', () => {
  it('the stranger\'s sub-account is untouched', async () => {
    const s = stranger;
    const got = await call(t.app, s.parent.apiKey, 'GET', `/account/${s.child.accountId}`);
    // Its users include the owner invited with the sub-account's email.
    expect(got.body.account).toMatchObject({ business_name: 'Child', credits: 10, inherit_parent_senders: false, team_access_from_parent: false, user_count: 3, number_count: 1, account_status: 'active' });
    expect((await call(t.app, s.child.apiKey, 'GET', '/balance')).body.credits).toBe(10);
    const keys = await call(t.app, s.parent.apiKey, 'GET', `/account/${s.child.accountId}/keys`);
    expect((keys.body.keys as Array<{ revoked_at: unknown }>).map((k) => k.revoked_at)).toEqual([null]);
    expect((await call(t.app, s.parent.apiKey, 'GET', '/balance')).body.credits).toBe(90);
    // And the parent that tried: its balance and numbers are as built.
    expect((await call(t.app, p.parent.apiKey, 'GET', '/balance')).body.credits).toBe(80);
  });
});
