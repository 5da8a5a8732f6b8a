// The route registry (src/platform/http/route-registry.ts) drives these checks over every registered route, so a
// route added anywhere is covered without editing a list here.
import { afterAll, describe, expect, it } from 'vitest';
import { errorStatus } from '../../src/platform/errors.ts';
import { routesOf } from '../../src/platform/http/route-registry.ts';
import { validatorCompiler } from '../../src/platform/http/validation.ts';
import { createTestApp } from '../support/app.ts';
import { authSuite } from '../support/auth-suite.ts';

const t = await createTestApp();
afterAll(async () => { await t.close(); });

const routes = routesOf(t.app);
const apiKeyRoutes = routes.filter((r) => r.auth === 'api_key');
// Path parameters filled with a well-formed id: authentication comes before any lookup.
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '01a1fc97-f1e8-765e-92c4-fdeb302ed871');

// The auth rules (401 without, with a malformed, an unknown or a revoked key, before any work) on every API-key
// route the app registers: a new keyed route is covered the moment it exists.
authSuite(() => t.app, apiKeyRoutes.map((r) => ({ method: r.method as 'GET', url: concrete(r.url), ...(r.contract.sample?.body ? { payload: r.contract.sample.body } : {}) })));

// Public on purpose (documented ones; hidden pages such as the dashboard and the opt-out links are not listed):
// health, dashboard sign-in (with its second step) and invites, operator sign-in (the token, or a named operator's
// setup link and name, password and code), the client libraries' status. Adding one is a decision.
const PUBLIC_ROUTES = [
  'GET /health', 'GET /ready',
  'POST /session', 'POST /session/two-factor', 'GET /session', 'DELETE /session', 'POST /invites/inspect', 'POST /invites/accept',
  'POST /password/forgot', 'POST /password/reset',
  'POST /session/operator', 'GET /session/operator', 'DELETE /session/operator',
  'POST /session/operator/setup/describe', 'POST /session/operator/setup', 'POST /session/operator/sign-in',
  'GET /status',
];

describe('the route registry', () => {
  it('records every route, with how it is authenticated', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(apiKeyRoutes.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['POST /send', 'GET /inbox', 'GET /balance']));
    expect(routes.find((r) => r.url === '/admin/accounts' && r.method === 'POST')?.auth).toBe('admin');
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
      // A scoped key route can refuse the key's scope; its contract's own codes are documented with their statuses.
      if (r.auth === 'api_key' && r.scope !== 'any') expect(documented, `${r.method} ${r.url}`).toContain('403');
      const own = r.codes.map((code) => String(errorStatus[code]));
      expect(documented, `${r.method} ${r.url}`).toEqual(expect.arrayContaining(own));
    }
    expect(Object.keys(doc.paths['/send']!.post!.responses)).toEqual(expect.arrayContaining(['413', '415']));
    const balance = doc.paths['/balance']!.get!.responses['403'] as { description?: string } | undefined;
    expect(balance).toBeDefined();
  });

  it('leaves open only the routes chosen to be public (a keyed route registered outside the keyed scope fails here)', () => {
    const open = routes.filter((r) => r.auth === 'public').map((r) => `${r.method} ${r.url}`);
    expect(open).toEqual(PUBLIC_ROUTES);
  });
});

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
// /mcp answers JSON-RPC, not the API's error body: it documents no response and states no contract.
const NO_CONTRACT = ['POST /mcp'];

describe('route contracts (config.contract)', () => {
  it('are stated by every keyed and operator route, and by every public JSON route that can fail', () => {
    const without = routes.filter((r) => r.auth !== 'public' && r.codes.length === 0).map(key);
    expect(without).toEqual(NO_CONTRACT);
    for (const url of ['/session', '/invites/accept', '/session/operator']) {
      expect(routes.find((r) => r.method === 'POST' && r.url === url)?.codes, url).toContain('validation_failed');
    }
  });

  it('name only codes of the union, and every code a route may answer is documented with its status', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    // Every recorded route is in the document (the checks above skip a route they cannot find there).
    const missing = routes.filter((r) => !doc.paths[r.url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[r.method.toLowerCase()]);
    expect(missing.map(key)).toEqual([]);
    for (const r of routes.filter((x) => x.codes.length > 0)) {
      for (const code of r.contract.errors ?? []) expect(Object.keys(errorStatus), key(r)).toContain(code);
      const documented = Object.keys(doc.paths[r.url.replace(/:([A-Za-z]+)/g, '{$1}')]![r.method.toLowerCase()]!.responses);
      expect(documented, key(r)).toEqual(expect.arrayContaining(r.codes.map((code) => String(errorStatus[code]))));
      // Nothing documented by hand: every error status comes from a code.
      const fromCodes = new Set(r.codes.map((code) => errorStatus[code]));
      expect(r.statuses.filter((s) => s >= 400 && !fromCodes.has(s as never)), key(r)).toEqual([]);
    }
  });

  it('give a sample body that its route accepts, on every route whose body has required fields', () => {
    for (const r of routes.filter((x) => x.body)) {
      const required = ((r.body as { required?: string[] }).required ?? []).length > 0;
      const sample = r.contract.sample?.body;
      if (required) expect(sample, `${key(r)} needs contract.sample.body`).toBeDefined();
      if (!sample) continue;
      const validate = validatorCompiler({ schema: r.body!, method: r.method, url: r.url, httpPart: 'body' }) as (data: unknown) => boolean;
      expect(validate(structuredClone(sample)), `${key(r)}: its sample is not a valid body`).toBe(true);
    }
  });
});

describe('codes answered before any route runs', () => {
  it('are codes of the union in the error body (a malformed path, an over-long path parameter), at Fastify\'s status', async () => {
    const badUrl = await t.app.inject({ method: 'DELETE', url: '/keys/%E0%A4%A' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({ error: expect.any(String), code: 'bad_request' });
    expect(badUrl.headers['x-request-id']).toBeTruthy();
    const long = await t.app.inject({ method: 'DELETE', url: `/admin/accounts/${'a'.repeat(200)}/keys/x` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ error: expect.any(String), code: 'bad_request' });
  });
});
