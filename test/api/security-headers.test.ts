// The headers helmet puts on every answer (platform/http/security-headers.ts), and the pages' own policies
// in their place; test/e2e/security-headers-browser.test.ts shows in Chromium that the pages work under them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount } from '../support/factories.ts';
import { DASHBOARD_CSP, DOCS_CSP } from '../../src/platform/http/content-security-policy.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const DENY_ALL = "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'";

describe('security headers', () => {
  it('a JSON answer, a refused one and a 404 carry nosniff, no framing, no referrer and a deny-all policy; no HSTS', async () => {
    const a = await createAccount(t.app);
    const answers = [
      await t.app.inject({ method: 'GET', url: '/balance', headers: { authorization: `Bearer ${a.apiKey}` } }),
      await t.app.inject({ method: 'GET', url: '/balance' }),
      await t.app.inject({ method: 'GET', url: '/no-such-route' }),
      await t.app.inject({ method: 'GET', url: '/openapi.json' }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 200]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['content-security-policy']).toBe(DENY_ALL);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    // The answer itself is unchanged for clients.
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toHaveProperty('credits');
  });

  it('the API reference carries its own policy; neither it nor the dashboard\'s runs an inline script', async () => {
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.headers['content-security-policy']).toBe(DOCS_CSP);
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
    for (const policy of [DOCS_CSP, DASHBOARD_CSP]) {
      expect(policy).toContain("script-src 'self';");
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).toContain("frame-ancestors 'none'");
    }
  });
});
