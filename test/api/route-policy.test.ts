// The routes' declared permissions against the committed policy table (src/platform/http/route-policy.txt): a
// test that read the declarations alone would prove nothing, so the table, reviewed like code, is the reference.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { routesOf } from '../../src/platform/http/route-registry.ts';
import { requireApiKey } from '../../src/platform/http/auth.ts';
import { POLICY_PATH } from '../../src/platform/http/route-policy-files.ts';
import { parsePolicy } from '../../src/platform/http/route-policy.ts';
import { createTestApp } from '../support/app.ts';

const t = await createTestApp();
afterAll(async () => { await t.close(); });

const policy = parsePolicy(readFileSync(POLICY_PATH, 'utf8'));
const declared = routesOf(t.app).filter((r) => r.auth === 'api_key');

// POSTs that change nothing (they answer what a send would do): the only non-GET routes allowed `read`.
const CHANGES_NOTHING = ['POST /send/preview', 'POST /send-batch/preview'];

describe('the route policy', () => {
  it('is exactly the routes\' declarations: every API route, its one permission', () => {
    const fromRoutes = declared.map((r) => `${r.method} ${r.url} ${r.scope}`).sort();
    const fromTable = policy.map((l) => `${l.method} ${l.url} ${l.permission}`).sort();
    expect(fromRoutes).toEqual(fromTable);
  });

  it('gives `read` to no route that changes anything', () => {
    const writesWithRead = policy.filter((l) => l.method !== 'GET' && l.permission === 'read').map((l) => `${l.method} ${l.url}`);
    expect(writesWithRead).toEqual(CHANGES_NOTHING);
  });

  it('moves money only with `billing`, removes opt-outs and changes the team only with `manage` or more', () => {
    const of = (key: string) => policy.find((l) => `${l.method} ${l.url}` === key)?.permission;
    for (const r of ['POST /account/:id/credits/allocate', 'POST /account/:id/credits/recall', 'POST /numbers/purchase']) expect(of(r), r).toBe('billing');
    for (const r of ['DELETE /optouts/:number', 'POST /team', 'DELETE /team/:memberId', 'PATCH /team/:memberId', 'POST /keys']) expect(of(r), r).toBe('manage');
    expect(of('POST /team/transfer-ownership')).toBe('owner');
  });
});

describe('a route without a permission', () => {
  const build = async (config: object) => {
    const app = Fastify();
    await app.register(async (scope) => {
      requireApiKey(scope, { authenticate: async () => null, limiter: { acquire: async () => ({ allowed: true, headers: {}, release: () => {} }) } as never });
      scope.get('/x', { config }, async () => ({}));
    });
    await app.ready();
    await app.close();
  };

  it('stops the app at start-up, as does an unknown one', async () => {
    await expect(build({})).rejects.toThrow(/declares no permission/);
    await expect(build({ scope: 'admin' })).rejects.toThrow(/unknown permission/);
    await expect(build({ scope: 'read' })).resolves.toBeUndefined();
  });
});
