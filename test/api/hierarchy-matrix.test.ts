// The authorization matrix: every account route, against every relationship between the caller and the target.
// A parent reaches only its own open sub-accounts; everything else is 404 (never saying why), 403 when the caller
// has no hierarchy flag, 401 when its key is revoked or its account closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile, type TestAccount } from '../support/factories.ts';

let t: TestApp;

interface Target {
  id: string;
  keyId: string;
  memberId: string;
  /** a number the target's parent holds (what assign would move) */
  parentNumber: string;
  /** a number the target holds (what recall would move) */
  childNumber: string;
}

interface Route {
  name: string;
  method: InjectOptions['method'];
  url: (x: Target) => string;
  payload?: (x: Target) => object;
  ok: number;
}

const routes: Route[] = [
  { name: 'read account', method: 'GET', url: (x) => `/account/${x.id}`, ok: 200 },
  { name: 'patch account', method: 'PATCH', url: (x) => `/account/${x.id}`, payload: () => ({ business_name: 'Renamed', inherit_parent_senders: true }), ok: 200 },
  { name: 'close account', method: 'DELETE', url: (x) => `/account/${x.id}`, ok: 200 },
  { name: 'balance', method: 'GET', url: (x) => `/account/${x.id}/balance`, ok: 200 },
  { name: 'allocate', method: 'POST', url: (x) => `/account/${x.id}/credits/allocate`, payload: () => ({ amount: 1 }), ok: 200 },
  { name: 'recall', method: 'POST', url: (x) => `/account/${x.id}/credits/recall`, payload: () => ({ amount: 1 }), ok: 200 },
  { name: 'list keys', method: 'GET', url: (x) => `/account/${x.id}/keys`, ok: 200 },
  { name: 'create key', method: 'POST', url: (x) => `/account/${x.id}/key`, payload: () => ({ name: 'new' }), ok: 201 },
  { name: 'revoke key', method: 'DELETE', url: (x) => `/account/${x.id}/key/${x.keyId}`, ok: 200 },
  { name: 'list users', method: 'GET', url: (x) => `/account/${x.id}/users`, ok: 200 },
  { name: 'invite user', method: 'POST', url: (x) => `/account/${x.id}/users`, payload: () => ({ email: `u-${randomUUID()}@x.test` }), ok: 201 },
  { name: 'remove user', method: 'DELETE', url: (x) => `/account/${x.id}/users/${x.memberId}`, ok: 200 },
  { name: 'read access', method: 'GET', url: (x) => `/account/${x.id}/access`, ok: 200 },
  { name: 'update access', method: 'PUT', url: (x) => `/account/${x.id}/access`, payload: () => ({ team_access_from_parent: true }), ok: 200 },
  { name: 'list numbers', method: 'GET', url: (x) => `/account/${x.id}/numbers`, ok: 200 },
  { name: 'assign numbers', method: 'POST', url: (x) => `/account/${x.id}/numbers/assign`, payload: (x) => ({ numbers: [x.parentNumber] }), ok: 200 },
  { name: 'recall numbers', method: 'POST', url: (x) => `/account/${x.id}/numbers/recall`, payload: (x) => ({ numbers: x.childNumber }), ok: 200 },
];

/** A parent with the flag and a fully furnished sub-account: key, member, a number of its own, one left on the parent. */
async function furnishedFamily(): Promise<{ parent: TestAccount; child: TestAccount; target: Target }> {
  const parent = await createAccount(t.app, { credits: 100, hierarchy: true });
  const created = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Child', seed_credits: 10, email: `c-${randomUUID()}@x.test` });
  const id = created.body.id as string;
  const key = await call(t.app, parent.apiKey, 'POST', `/account/${id}/key`, { name: 'k' });
  const member = await call(t.app, parent.apiKey, 'POST', `/account/${id}/users`, { email: 'member@x.test' });
  const [parentNumber, childNumber] = [mobile(), mobile()];
  for (const n of [parentNumber, childNumber]) await admin(t.app, 'POST', '/admin/numbers', { number: n, country: 'AU', account_id: parent.accountId });
  await call(t.app, parent.apiKey, 'POST', `/account/${id}/numbers/assign`, { numbers: childNumber });
  const child = { accountId: id, apiKey: key.body.key as string, keyId: key.body.id as string };
  return { parent, child, target: { id, keyId: child.keyId, memberId: (member.body.user as { id: string }).id, parentNumber, childNumber } };
}

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
  t = await createTestApp();
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

  it('parent on its closed sub-account: 404; the closed account\'s key: 401', async () => {
    expect((await send(closed.parent.apiKey, route, closed.target)).status).toBe(404);
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
    expect(got.body.account).toMatchObject({ business_name: 'Child', credits: 10, inherit_parent_senders: false, team_access_from_parent: false, user_count: 1, number_count: 1, account_status: 'active' });
    expect((await call(t.app, s.child.apiKey, 'GET', '/balance')).body.credits).toBe(10);
    const keys = await call(t.app, s.parent.apiKey, 'GET', `/account/${s.child.accountId}/keys`);
    expect((keys.body.keys as Array<{ revoked_at: unknown }>).map((k) => k.revoked_at)).toEqual([null]);
    expect((await call(t.app, s.parent.apiKey, 'GET', '/balance')).body.credits).toBe(90);
    // And the parent that tried: its balance and numbers are as built.
    expect((await call(t.app, p.parent.apiKey, 'GET', '/balance')).body.credits).toBe(80);
  });
});
