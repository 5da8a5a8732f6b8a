import { describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { admin, bearer, createAccount } from './factories.ts';

export interface RouteCase {
  method: InjectOptions['method'];
  url: string;
  payload?: object;
}

/**
 * The auth rules every tenant route must keep: no key, a malformed key, an unknown key and a revoked key all
 * answer 401 with the error body, before any work is done.
 */
export function authSuite(getApp: () => FastifyInstance, routes: RouteCase[]): void {
  describe.each(routes)('auth on $method $url', (route) => {
    const send = (headers: Record<string, string>) => getApp().inject({ method: route.method, url: route.url, headers, ...(route.payload ? { payload: route.payload } : {}) });

    it('401 without a key', async () => {
      const res = await send({});
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized', error: expect.any(String) });
      expect(res.headers['x-request-id']).toBeTruthy();
    });

    it('401 with a malformed or unknown key', async () => {
      for (const key of ['nonsense', 'tsm_' + 'A'.repeat(32)]) {
        const res = await send(bearer(key));
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('unauthorized');
      }
      const basic = await send({ authorization: 'Basic Zm9vOmJhcg==' });
      expect(basic.statusCode).toBe(401);
    });

    it('401 with a revoked key, on the very next request', async () => {
      const acct = await createAccount(getApp());
      const revoked = await admin(getApp(), 'DELETE', `/admin/accounts/${acct.accountId}/keys/${acct.keyId}`);
      expect(revoked.status).toBe(200);
      const res = await send(bearer(acct.apiKey));
      expect(res.statusCode).toBe(401);
    });
  });
}
