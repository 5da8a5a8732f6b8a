// What the dashboard needs beyond the interface: its pages under /app/ (never shadowing the API), the campaign
// list, per-day counts, and the operator's account search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { dashboardRoutes } from '../../src/modules/dashboard/dashboard.routes.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

describe('pages under /app/', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'tasman-web-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Tasman</title>');
  writeFileSync(path.join(root, 'assets', 'app-1234.js'), 'console.log(1)');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  async function served(dir: string) {
    // As in buildApp: /app and /app/ are one route.
    const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    await app.register(dashboardRoutes, { root: dir });
    return app;
  }

  it('serves the page for every client route, hashed assets as immutable, and never a page for a missing asset', async () => {
    const app = await served(root);
    for (const url of ['/app', '/app/', '/app/send', '/app/messages/123']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Tasman</title>');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    const asset = await app.inject({ url: '/app/assets/app-1234.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await app.inject({ url: '/app/assets/gone.js' })).statusCode).toBe(404);
    await app.close();
  });

  it('a browser at /, /login or /operator is sent to its page; an API client at / still gets JSON 404', async () => {
    const html = { accept: 'text/html,application/xhtml+xml' };
    expect((await t.app.inject({ url: '/', headers: html })).headers.location).toBe('/app/');
    expect((await t.app.inject({ url: '/login' })).headers.location).toBe('/app/login');
    expect((await t.app.inject({ url: '/operator' })).headers.location).toBe('/app/operator');
    const api = await t.app.inject({ url: '/' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('route_not_found');
    const missing = await t.app.inject({ url: '/no/such/route', headers: html });
    expect(missing.json().code).toBe('route_not_found');
  });

  it('without a build, /app/ says how to build it', async () => {
    const app = await served(path.join(root, 'missing'));
    const res = await app.inject({ url: '/app/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build:web');
    await app.close();
  });
});

describe('GET /campaigns and GET /report/daily', () => {
  it('lists the account\'s campaigns newest first with counts; another account sees none of them', async () => {
    const a = await createAccount(t.app, { credits: 20 });
    await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'one', campaign: 'First', recipients: [mobile(), mobile()] });
    await call(t.app, a.apiKey, 'POST', '/send-batch', { message: 'two', campaign: 'Second', recipients: [mobile()] });
    const list = await call(t.app, a.apiKey, 'GET', '/campaigns?limit=1');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ limit: 1, offset: 0, campaigns: [{ name: 'Second', recipient_count: 1, stats: { total: 1 }, status: expect.any(String) }] });
    const next = await call(t.app, a.apiKey, 'GET', '/campaigns?limit=1&offset=1');
    expect((next.body.campaigns as Array<{ name: string }>)[0]!.name).toBe('First');
    const other = await createAccount(t.app);
    expect((await call(t.app, other.apiKey, 'GET', '/campaigns')).body.campaigns).toEqual([]);
    expect((await call(t.app, a.apiKey, 'GET', '/campaigns?limit=0')).status).toBe(400);
  });

  it('gives every day of the range, zeros included, with today\'s messages counted', async () => {
    const a = await createAccount(t.app, { credits: 20 });
    await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'hi' });
    const res = await call(t.app, a.apiKey, 'GET', '/report/daily');
    expect(res.status).toBe(200);
    const days = res.body.days as Array<{ day: string; total: number }>;
    expect(days).toHaveLength(31);
    expect(days[0]!.day).toBe(res.body.from);
    expect(days.at(-1)).toMatchObject({ day: res.body.to, total: 1 });
    expect(days.slice(0, -1).every((d) => d.total === 0)).toBe(true);
    expect((await call(t.app, a.apiKey, 'GET', '/report/daily?from=2026-02-30')).status).toBe(400);
  });
});

describe('GET /account/{id}/report/daily', () => {
  it('gives a parent its sub-account\'s days; a stranger gets 404 and an account without the hierarchy 403', async () => {
    const parent = await createAccount(t.app, { credits: 50, hierarchy: true });
    const sub = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Branch', seed_credits: 10 });
    const id = sub.body.id as string;
    const key = (await call(t.app, parent.apiKey, 'POST', `/account/${id}/key`, { name: 'k' })).body.key as string;
    for (let i = 0; i < 2; i++) expect((await call(t.app, key, 'POST', '/send', { to: mobile(), message: 'branch' })).status).toBe(200);
    await call(t.app, parent.apiKey, 'POST', '/send', { to: mobile(), message: 'head office' });

    const res = await call(t.app, parent.apiKey, 'GET', `/account/${id}/report/daily`);
    expect(res.status).toBe(200);
    const days = res.body.days as Array<{ day: string; total: number }>;
    expect(days).toHaveLength(31);
    // The sub-account's two only: the parent's own message is not in it.
    expect(days.at(-1)).toMatchObject({ day: res.body.to, total: 2 });
    expect(((await call(t.app, parent.apiKey, 'GET', '/report/daily')).body.days as Array<{ total: number }>).at(-1)).toMatchObject({ total: 1 });

    const stranger = await createAccount(t.app, { hierarchy: true });
    expect((await call(t.app, stranger.apiKey, 'GET', `/account/${id}/report/daily`)).status).toBe(404);
    const flat = await createAccount(t.app);
    expect((await call(t.app, flat.apiKey, 'GET', `/account/${id}/report/daily`)).body.code).toBe('hierarchy_not_enabled');
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${id}/report/daily?from=2026-02-30`)).status).toBe(400);
  });
});

describe('GET /admin/accounts', () => {
  it('searches by name, email or id, newest first, with paging', async () => {
    const tag = randomUUID().slice(0, 8);
    const one = await createAccount(t.app, { name: `Search ${tag} One` });
    await createAccount(t.app, { name: `Search ${tag} Two` });
    const found = await admin(t.app, 'GET', `/admin/accounts?q=${tag}`);
    expect((found.body.accounts as Array<{ business_name: string }>).map((x) => x.business_name)).toEqual([`Search ${tag} Two`, `Search ${tag} One`]);
    const byId = await admin(t.app, 'GET', `/admin/accounts?q=${one.accountId}`);
    expect(byId.body.accounts).toHaveLength(1);
    expect((await admin(t.app, 'GET', `/admin/accounts?q=${tag}&limit=1&offset=1`)).body.accounts).toMatchObject([{ business_name: `Search ${tag} One` }]);
    expect((await admin(t.app, 'GET', '/admin/accounts?q=%25')).status).toBe(200);
    expect((await t.app.inject({ url: '/admin/accounts' })).statusCode).toBe(401);
  });
});
