// Every API route against every role, flag and key scope, from the route registry and the committed route policy:
// a new route joins the matrix the moment it is registered (and the policy test makes it join the table). A
// caller without the route's permission is refused 403 (permission_denied for a user, insufficient_scope for a
// key, naming the permission) with nothing changed; a caller holding it passes the check (whatever the handler
// then answers for a made-up id or a sample body, it is never a refusal of that permission).
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../../src/platform/http/route-registry.ts';
import { POLICY_PATH } from '../../src/platform/http/route-policy-files.ts';
import { parsePolicy } from '../../src/platform/http/route-policy.ts';
import type { RoutePermission } from '../../src/platform/permissions.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { accountState, as, callerFor, PROFILES, type Caller } from '../support/permission-profiles.ts';
import type { TestAccount } from '../support/factories.ts';

const t: TestApp = await createTestApp();
afterAll(async () => { await t.close(); });

const policy = new Map(parsePolicy(readFileSync(POLICY_PATH, 'utf8')).map((l) => [`${l.method} ${l.url}`, l.permission]));
// The routes with one permission (/mcp checks per tool: api/permission-findings.test.ts runs tools as callers).
const routes = routesOf(t.app).filter((r) => r.auth === 'api_key' && r.scope !== 'any').map((r) => ({
  method: r.method as 'GET', url: r.url, body: r.contract.sample?.body,
  // The table's word, not the route's own declaration: a route that drifted from the table is tested against the table.
  permission: policy.get(`${r.method} ${r.url}`) as RoutePermission | undefined,
}));
const fill = (url: string) => url.replace(/:[A-Za-z]+/g, () => randomUUID());

const holds = (caller: Caller, needed: RoutePermission) => (needed === 'self' ? caller.kind === 'session' : caller.permissions.includes(needed));

describe.each(PROFILES)('as $name', (profile) => {
  let account: TestAccount;
  let caller: Caller;
  beforeAll(async () => { ({ account, caller } = await callerFor(t.app, profile)); });

  it('every route it lacks the permission for is refused 403, and nothing changes', async () => {
    const denied = routes.filter((r) => r.permission && !holds(caller, r.permission));
    const before = await accountState(t.app, account);
    for (const r of denied) {
      const res = await as(t.app, caller, r.method, fill(r.url), r.body);
      const what = `${r.method} ${r.url} (${r.permission})`;
      expect(res.status, what).toBe(403);
      if (r.permission === 'self') {
        expect(res.body.code, what).toBe('forbidden');
      } else if (caller.kind === 'session') {
        expect(res.body, what).toMatchObject({ code: 'permission_denied', required_permission: r.permission });
      } else {
        expect(res.body, what).toMatchObject({ code: 'insufficient_scope', required_scope: r.permission });
      }
    }
    expect(await accountState(t.app, account)).toEqual(before);
  });

  it('every route it holds the permission for passes the check', async () => {
    for (const r of routes.filter((x) => x.permission && holds(caller, x.permission))) {
      const res = await as(t.app, caller, r.method, fill(r.url), r.body);
      const refused = ['permission_denied', 'insufficient_scope'].includes(res.body.code as string)
        && [res.body.required_permission, res.body.required_scope].includes(r.permission);
      expect(refused, `${r.method} ${r.url}: ${res.status} ${JSON.stringify(res.body)}`).toBe(false);
      expect(res.status, `${r.method} ${r.url}`).toBeLessThan(500);
    }
  });
});

it('covers every route in the table with a permission (a route missing from the table is found by route-policy.test.ts)', () => {
  expect(routes.length).toBeGreaterThan(50);
  expect(routes.filter((r) => !r.permission).map((r) => `${r.method} ${r.url}`)).toEqual([]);
});
