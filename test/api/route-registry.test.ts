// The route registry (src/platform/http/route-registry.ts) drives these checks over every registered route, so a
// route added anywhere is covered without editing a list here.
import { afterAll, describe, expect, it } from 'vitest';
import { routesOf } from '../../src/platform/http/route-registry.ts';
import { createTestApp } from '../support/app.ts';
import { bearer } from '../support/factories.ts';

const t = await createTestApp();
afterAll(async () => { await t.close(); });

const routes = routesOf(t.app);
const apiKeyRoutes = routes.filter((r) => r.auth === 'api_key');
// Path parameters filled with a well-formed id: authentication comes before any lookup.
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '01a1fc97-f1e8-765e-92c4-fdeb302ed871');

describe('the route registry', () => {
  it('records every route, with how it is authenticated', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(apiKeyRoutes.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['POST /send', 'GET /inbox', 'GET /balance']));
    expect(routes.find((r) => r.url === '/admin/accounts' && r.method === 'POST')?.auth).toBe('admin');
  });

  it.each(apiKeyRoutes.map((r) => [r.method, r.url] as const))('%s %s: 401 without a key and with an unknown key, before any work', async (method, url) => {
    for (const headers of [{}, bearer('tsm_' + 'A'.repeat(32))]) {
      const res = await t.app.inject({ method: method as 'GET', url: concrete(url), headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized', error: expect.any(String) });
    }
  });

  it('documents, on every JSON route, the errors its kind can answer (401/429 with a key, 413/415 with a body)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const r of routes) {
      const path = r.url.replace(/:([A-Za-z]+)/g, '{$1}');
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      if (!op || !r.statuses.some((s) => s >= 400)) continue;
      const documented = Object.keys(op.responses);
      if (r.auth === 'api_key') expect(documented, `${r.method} ${r.url}`).toEqual(expect.arrayContaining(['401', '429']));
      if (['POST', 'PUT', 'PATCH'].includes(r.method)) expect(documented, `${r.method} ${r.url}`).toEqual(expect.arrayContaining(['400', '413', '415']));
    }
    expect(Object.keys(doc.paths['/send']!.post!.responses)).toEqual(expect.arrayContaining(['413', '415']));
  });
});
