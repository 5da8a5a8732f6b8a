// The app compiles a route's validators and serializers on its first request (common/on-first-use.ts), so a schema
// that cannot compile would fail only when the route is first called: this compiles every route's body validator
// and response serializers at once, as start-up used to.
import { afterAll, describe, expect, it } from 'vitest';
import fastJson from 'fast-json-stringify';
import { routesOf } from '../../src/platform/http/route-registry.ts';
import { validatorCompiler } from '../../src/platform/http/validation.ts';
import { createTestApp } from '../support/app.ts';

const t = await createTestApp();
afterAll(async () => { await t.close(); });

describe('every route schema compiles', () => {
  it('each body validator and each response serializer, of every registered route', () => {
    const routes = routesOf(t.app);
    expect(routes.length).toBeGreaterThan(100);
    let compiled = 0;
    for (const route of routes) {
      const where = `${route.method} ${route.url}`;
      if (route.body) {
        expect(() => validatorCompiler({ schema: route.body!, httpPart: 'body', method: route.method, url: route.url }), where).not.toThrow();
        compiled += 1;
      }
      for (const [status, schema] of Object.entries(route.response ?? {})) {
        expect(() => fastJson(schema as object), `${where} ${status}`).not.toThrow();
        compiled += 1;
      }
    }
    expect(compiled).toBeGreaterThan(routes.length);
  });
});
