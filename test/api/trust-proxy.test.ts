// TRUST_PROXY lets the opt-out page's per-client limit and the request logs see the client
// behind a reverse proxy; off by default, when X-Forwarded-For is never believed.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let t: TestApp | null = null;
afterEach(async () => { await t?.close(); t = null; });

/** 12 page loads from each of two clients behind the proxy (the page allows 10 a second per client). */
async function loads(app: TestApp['app']) {
  const statuses: Record<string, number[]> = { '203.0.113.7': [], '198.51.100.9': [] };
  for (let i = 0; i < 12; i += 1) {
    for (const client of Object.keys(statuses)) {
      const res = await app.inject({ method: 'GET', url: '/o/AAAAAAA', headers: { 'x-forwarded-for': client }, remoteAddress: '127.0.0.1' });
      statuses[client]!.push(res.statusCode);
    }
  }
  return Object.fromEntries(Object.entries(statuses).map(([client, s]) => [client, s.filter((code) => code === 429).length]));
}

describe('TRUST_PROXY', () => {
  it('off by default: X-Forwarded-For is ignored, so every client behind the proxy shares one limit', async () => {
    t = await createTestApp();
    const limited = await loads(t.app);
    expect(limited['203.0.113.7']! + limited['198.51.100.9']!).toBeGreaterThanOrEqual(12);
  });

  it('with the proxy\'s address, each client behind it has its own limit', async () => {
    t = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
    expect(await loads(t.app)).toEqual({ '203.0.113.7': 2, '198.51.100.9': 2 });
  });

  it('with a hop count too', async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
    expect(await loads(t.app)).toEqual({ '203.0.113.7': 2, '198.51.100.9': 2 });
  });

  it('parses a hop count or addresses and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(ConfigError);
  });
});
