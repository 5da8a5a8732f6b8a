import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, createAccount, mobile } from '../support/factories.ts';

// The operator's lists of keys, Sender IDs and numbers. The database is shared with other test files, so every
// assertion is narrowed to this test's own accounts (account_id filter) or its own unique values.

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

/** An ABN that passes the 11-digit check and no other test uses. */
const abn = () => String(10_000_000_000 + Math.floor(Math.random() * 89_999_999_999));

describe('operator lists', () => {
  it('needs the operator token', async () => {
    const a = await createAccount(t.app);
    for (const url of ['/admin/keys', '/admin/sender-ids', '/admin/numbers']) {
      for (const headers of [{}, { authorization: `Bearer ${a.apiKey}` }]) {
        expect((await t.app.inject({ method: 'GET', url, headers })).statusCode, url).toBe(401);
      }
    }
  });

  it('lists an account\'s keys newest first, by status and prefix, never the key itself', async () => {
    const a = await createAccount(t.app);
    const second = await admin(t.app, 'POST', `/admin/accounts/${a.accountId}/keys`, { name: 'CI', scopes: ['read'] });
    const third = await admin(t.app, 'POST', `/admin/accounts/${a.accountId}/keys`, { name: 'Old' });
    await admin(t.app, 'DELETE', `/admin/accounts/${a.accountId}/keys/${third.body.id}`);

    const all = await admin(t.app, 'GET', `/admin/keys?account_id=${a.accountId}`);
    expect(all.status).toBe(200);
    const keys = all.body.keys as Array<Record<string, unknown>>;
    expect(keys.map((k) => k.name)).toEqual(['Old', 'CI', 'Default']);
    expect(keys[1]).toEqual({
      id: second.body.id, account_id: a.accountId, name: 'CI', prefix: second.body.prefix, scopes: ['read'],
      created_at: expect.stringMatching(/Z$/), last_used_at: null, revoked_at: null,
    });
    expect(JSON.stringify(all.body)).not.toContain(second.body.key as string);
    expect(all.body).toMatchObject({ total: 3, limit: 25, offset: 0 });

    const active = await admin(t.app, 'GET', `/admin/keys?account_id=${a.accountId}&status=active`);
    expect((active.body.keys as Array<{ name: string }>).map((k) => k.name)).toEqual(['CI', 'Default']);
    const revoked = await admin(t.app, 'GET', `/admin/keys?account_id=${a.accountId}&status=revoked`);
    expect((revoked.body.keys as Array<{ id: string; revoked_at: string }>)).toEqual([expect.objectContaining({ id: third.body.id, revoked_at: expect.stringMatching(/Z$/) })]);

    // A key found by the prefix a customer quotes, whatever account holds it.
    const byPrefix = await admin(t.app, 'GET', `/admin/keys?prefix=${encodeURIComponent(second.body.prefix as string)}`);
    expect((byPrefix.body.keys as Array<{ id: string }>).map((k) => k.id)).toEqual([second.body.id]);

    const paged = await admin(t.app, 'GET', `/admin/keys?account_id=${a.accountId}&limit=1&offset=1`);
    expect((paged.body.keys as Array<{ name: string }>).map((k) => k.name)).toEqual(['CI']);
    // The total counts every match, whichever page is asked, past the end too.
    expect(paged.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect((await admin(t.app, 'GET', `/admin/keys?account_id=${a.accountId}&status=active&offset=5`)).body).toMatchObject({ keys: [], total: 2 });
  });

  it('lists Sender IDs by part of the name, ABN or account', async () => {
    const a = await createAccount(t.app);
    const theAbn = abn();
    const tag = randomUUID().replace(/-/g, '').slice(0, 6).toUpperCase();
    const own = await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: `Shop${tag}`, abn: theAbn, account_id: a.accountId });
    expect(own.status).toBe(201);
    const shared = await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: `Info${tag}`, abn: theAbn });
    expect(shared.status).toBe(201);

    const byAbn = await admin(t.app, 'GET', `/admin/sender-ids?abn=${theAbn.slice(0, 2)}%20${theAbn.slice(2)}`);
    expect((byAbn.body.sender_ids as Array<{ sender_id: string }>).map((s) => s.sender_id)).toEqual([`Info${tag}`, `Shop${tag}`]);
    const byAccount = await admin(t.app, 'GET', `/admin/sender-ids?account_id=${a.accountId}`);
    expect(byAccount.body.sender_ids).toEqual([{ id: own.body.id, sender_id: `Shop${tag}`, abn: theAbn, account_id: a.accountId, created_at: own.body.created_at }]);
    const byName = await admin(t.app, 'GET', `/admin/sender-ids?q=${`info${tag}`.toLowerCase()}`);
    expect((byName.body.sender_ids as Array<{ id: string }>).map((s) => s.id)).toEqual([shared.body.id]);
    // % and _ are what they are, not wildcards.
    expect((await admin(t.app, 'GET', `/admin/sender-ids?abn=${theAbn}&q=%25`)).body.sender_ids).toEqual([]);
    expect((await admin(t.app, 'GET', '/admin/sender-ids?abn=123')).status).toBe(400);
  });

  it('lists numbers in number order: the pool, the held ones, by country and by digits typed locally', async () => {
    const a = await createAccount(t.app);
    const [first, second] = [mobile(), mobile()].sort();
    await admin(t.app, 'POST', '/admin/numbers', { number: second, country: 'AU', account_id: a.accountId, price_monthly: 12.5 });
    const pooled = await admin(t.app, 'POST', '/admin/numbers', { number: first, country: 'AU' });
    expect(pooled.status).toBe(201);

    const held = await admin(t.app, 'GET', `/admin/numbers?account_id=${a.accountId}`);
    expect(held.body.numbers).toEqual([{
      id: expect.any(String), number: second, country: 'AU', price_monthly: 12.5, account_id: a.accountId, label: null,
      assigned_at: expect.stringMatching(/Z$/), paid_until: null, unpaid_since: null, created_at: expect.stringMatching(/Z$/),
    }]);
    const local = `0${first!.slice(3, 6)} ${first!.slice(6)}`;
    const found = await admin(t.app, 'GET', `/admin/numbers?q=${encodeURIComponent(local)}`);
    expect((found.body.numbers as Array<{ number: string; account_id: string | null }>)).toEqual([expect.objectContaining({ number: first, account_id: null })]);
    expect((await admin(t.app, 'GET', `/admin/numbers?q=${encodeURIComponent(local)}&status=held`)).body.numbers).toEqual([]);
    expect((await admin(t.app, 'GET', `/admin/numbers?q=${encodeURIComponent(local)}&status=pool&country=AU`)).body.numbers).toHaveLength(1);
    expect((await admin(t.app, 'GET', `/admin/numbers?q=${encodeURIComponent(local)}&country=NZ`)).body.numbers).toEqual([]);
    for (const bad of ['status=sold', 'country=US', 'limit=0', 'limit=101', 'account_id=nope']) {
      expect((await admin(t.app, 'GET', `/admin/numbers?${bad}`)).status, bad).toBe(400);
    }
  });
});
