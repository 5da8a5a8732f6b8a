// An audit, on demand, of the route contracts against what the API tests provoke: with TASMAN_AUDIT_ERRORS=<file>
// every error a test app answers through inject() that its route does not document (its code is not among the
// route's registry codes) is appended to <file> as one JSON line. Run a set of API test files with it, then read
// the file: a line is a code to add to that route's config.contract (or a bug). Not a test by itself: a
// contract is checked statically by route-registry.test.ts; this finds what a handler's services really throw.
import { appendFileSync } from 'node:fs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { routesOf, type RouteEntry } from '../../src/platform/http/route-registry.ts';

const pattern = (url: string) => new RegExp(`^${url.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`);

export function auditErrors(app: FastifyInstance, file: string): void {
  // Static routes first, so /send/preview is not taken for a route with a parameter.
  const entries = [...routesOf(app)].sort((a, b) => Number(a.url.includes(':')) - Number(b.url.includes(':')))
    .map((r) => ({ r, re: pattern(r.url) }));
  const routeOf = (method: string, path: string): RouteEntry | undefined =>
    entries.find((e) => e.r.method === method && e.re.test(path))?.r;
  const inject = app.inject.bind(app) as (opts: InjectOptions) => ReturnType<FastifyInstance['inject']>;
  (app as unknown as { inject: unknown }).inject = async (opts: InjectOptions) => {
    const res = await inject(opts);
    if (res.statusCode < 400 || typeof opts !== 'object') return res;
    const method = String(opts.method ?? 'GET').toUpperCase();
    const path = String(opts.url ?? opts.path ?? '').split('?')[0]!;
    const route = routeOf(method, path);
    let code: unknown;
    try { code = (res.json() as { code?: unknown }).code; } catch { return res; }
    // bad_request is Fastify's refusal before routing (a malformed path): no route's to document.
    if (route && route.codes.length > 0 && typeof code === 'string' && code !== 'bad_request' && !route.codes.includes(code as never)) {
      appendFileSync(file, `${JSON.stringify({ route: `${method} ${route.url}`, status: res.statusCode, code })}\n`);
    }
    return res;
  };
}
