import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { routesOf } from '../../src/platform/http/route-registry.ts';
import { rows } from '../../src/platform/db/client.ts';
import { deleteEntriesBefore } from '../../src/modules/audit/audit.repo.ts';
import { retentionCutoff } from '../../src/modules/retention/cutoff.ts';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount } from '../support/factories.ts';

let t: TestApp;
// A fixed clock: the refusal cap counts per minute, and a run crossing a minute would start a new count.
const CLOCK = new Date('2026-06-01T10:00:30Z');
beforeAll(async () => { t = await createTestApp({}, { now: () => CLOCK }); });
afterAll(async () => { await t.close(); });

type Entry = {
  id: string; action: string; outcome: string; reason: string | null; source_address: string | null; account_id: string | null;
  actor: { type: string; id: string | null; label: string | null }; target: { type: string; id: string | null } | null;
  before: Record<string, unknown> | null; after: Record<string, unknown> | null;
};

async function audit(key: string, query = '') {
  const res = await call(t.app, key, 'GET', `/audit${query}`);
  expect(res.status).toBe(200);
  return res.body as { entries: Entry[]; next_cursor: string | null };
}

describe('audit log: API keys', () => {
  it('records a key created and revoked, with the key that did it, its prefix and the source address', async () => {
    const acct = await createAccount(t.app);
    const created = await call(t.app, acct.apiKey, 'POST', '/keys', { name: 'ci', scopes: ['read'] });
    expect(created.status).toBe(201);
    expect((await call(t.app, acct.apiKey, 'DELETE', `/keys/${created.body.id}`)).status).toBe(200);
    // A second revoke changes nothing and records nothing.
    expect((await call(t.app, acct.apiKey, 'DELETE', `/keys/${created.body.id}`)).status).toBe(200);

    const { entries } = await audit(acct.apiKey, '?action=key');
    expect(entries.map((e) => e.action)).toEqual(['key.revoked', 'key.created']);
    const [revoked, made] = entries;
    expect(made).toMatchObject({
      account_id: acct.accountId, outcome: 'ok', source_address: '127.0.0.1',
      actor: { type: 'key', id: acct.keyId, label: expect.stringMatching(/^tsm_/) },
      target: { type: 'api_key', id: created.body.id }, before: null, after: { name: 'ci', scopes: ['read'] },
    });
    expect(acct.apiKey.startsWith(made!.actor.label!)).toBe(true);
    expect(revoked).toMatchObject({ target: { id: created.body.id }, before: { revoked: false }, after: { revoked: true } });
    // The new key itself is nowhere in the log.
    const [leaked] = await rows<{ n: number }>(t.services.db, sql`select count(*)::int as n from audit_log where before::text like ${`%${created.body.key as string}%`} or after::text like ${`%${created.body.key as string}%`}`);
    expect(leaked?.n).toBe(0);
  });

  it('records a refused attempt as refused, with the code it was answered', async () => {
    const acct = await createAccount(t.app);
    const reader = await admin(t.app, 'POST', `/admin/accounts/${acct.accountId}/keys`, { name: 'reader', scopes: ['read'] });
    const res = await call(t.app, reader.body.key as string, 'POST', '/keys', { name: 'escalate' });
    expect(res.status).toBe(403);
    const { entries } = await audit(acct.apiKey, '?outcome=refused');
    expect(entries).toEqual([expect.objectContaining({
      action: 'access.refused', outcome: 'refused', reason: 'insufficient_scope', target: { type: 'route', id: 'POST /keys' },
      actor: expect.objectContaining({ type: 'key', id: reader.body.id }),
    })]);
  });

  it('pages with a cursor and filters by actor, target and dates; another account sees none of it', async () => {
    const acct = await createAccount(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call(t.app, acct.apiKey, 'POST', '/keys', { name: `k${i}` })).body.id as string);
    const first = await audit(acct.apiKey, '?limit=2&action=key.created');
    expect(first.entries).toHaveLength(2);
    const second = await audit(acct.apiKey, `?limit=2&action=key.created&cursor=${first.next_cursor}`);
    expect(second.next_cursor).toBeNull();
    expect([...first.entries, ...second.entries].map((e) => e.target?.id)).toEqual([...ids].reverse());
    expect((await audit(acct.apiKey, `?target=${ids[1]}`)).entries.map((e) => e.target?.id)).toEqual([ids[1]]);
    expect((await audit(acct.apiKey, `?actor=${acct.keyId}`)).entries).toHaveLength(3);
    expect((await audit(acct.apiKey, '?from=2100-01-01T00:00:00Z')).entries).toHaveLength(0);
    expect((await audit(acct.apiKey, '?to=2000-01-01T00:00:00Z')).entries).toHaveLength(0);
    expect((await call(t.app, acct.apiKey, 'GET', '/audit?cursor=nonsense')).status).toBe(400);
    expect((await call(t.app, acct.apiKey, 'GET', '/audit?from=yesterday')).status).toBe(400);

    const stranger = await createAccount(t.app, { hierarchy: true });
    expect((await audit(stranger.apiKey, `?target=${ids[0]}`)).entries).toHaveLength(0);
    expect((await call(t.app, stranger.apiKey, 'GET', `/audit?account_id=${acct.accountId}`)).status).toBe(404);
    const all = await admin(t.app, 'GET', `/admin/audit?account_id=${acct.accountId}&action=key.created`);
    expect(all.status).toBe(200);
    expect((all.body.entries as Entry[]).map((e) => e.target?.id)).toEqual([...ids].reverse());
  });

  it('lets a parent read the log of a sub-account it manages', async () => {
    const parent = await createAccount(t.app, { hierarchy: true });
    const sub = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Sub', email: `s-${Date.now()}@example.com` });
    const key = await call(t.app, parent.apiKey, 'POST', `/account/${sub.body.id}/key`, { name: 'sub key' });
    const { entries } = await audit(parent.apiKey, `?account_id=${sub.body.id}&action=key.created`);
    expect(entries).toEqual([expect.objectContaining({ account_id: sub.body.id, target: { type: 'api_key', id: key.body.id }, actor: expect.objectContaining({ id: parent.keyId }) })]);
  });

  it('needs the manage scope', async () => {
    const acct = await createAccount(t.app);
    const reader = await admin(t.app, 'POST', `/admin/accounts/${acct.accountId}/keys`, { name: 'reader', scopes: ['read', 'send'] });
    expect((await call(t.app, reader.body.key as string, 'GET', '/audit')).body.code).toBe('insufficient_scope');
  });
});

describe('audit log: refusals', () => {
  it('records at most 20 refusals per actor a minute, then one refusals_capped entry, and answers every refusal', async () => {
    const acct = await createAccount(t.app);
    const reader = await admin(t.app, 'POST', `/admin/accounts/${acct.accountId}/keys`, { name: 'reader', scopes: ['read'] });
    for (let i = 0; i < 25; i++) {
      expect((await call(t.app, reader.body.key as string, 'DELETE', `/keys/${acct.keyId}`)).status).toBe(403);
    }
    const { entries } = await audit(acct.apiKey, `?outcome=refused&actor=${reader.body.id as string}&limit=100`);
    expect(entries.filter((e) => e.action === 'access.refused')).toHaveLength(20);
    expect(entries.filter((e) => e.action === 'audit.refusals_capped')).toEqual([expect.objectContaining({ after: { per_minute: 20 } })]);
    expect(entries).toHaveLength(21);
  });

  it('records the operator console\'s failed and successful sign-ins for the operator only', async () => {
    const wrong = await t.app.inject({ method: 'POST', url: '/session/operator', payload: { token: 'not-the-operator-token' } });
    expect(wrong.statusCode).toBe(401);
    const right = await t.app.inject({ method: 'POST', url: '/session/operator', payload: { token: ADMIN_TOKEN } });
    expect(right.statusCode).toBe(200);
    const failed = await admin(t.app, 'GET', '/admin/audit?action=operator&limit=500');
    const actions = (failed.body.entries as Entry[]).map((e) => [e.action, e.account_id, e.outcome]);
    expect(actions).toContainEqual(['operator.sign_in_failed', null, 'refused']);
    expect(actions).toContainEqual(['operator.signed_in', null, 'ok']);
    const leaked = await rows<{ n: number }>(t.services.db, sql`select count(*)::int as n from audit_log a where row_to_json(a)::text like ${`%${ADMIN_TOKEN}%`} or row_to_json(a)::text like '%not-the-operator-token%'`);
    expect(leaked[0]?.n).toBe(0);
  });
});

describe('audit log: append-only', () => {
  it('has no route that changes or deletes an entry', () => {
    const auditRoutes = routesOf(t.app).filter((r) => r.url.includes('audit'));
    expect(auditRoutes.map((r) => `${r.method} ${r.url}`).sort()).toEqual(['GET /admin/audit', 'GET /audit']);
  });

  it('refuses every other method on the audit routes, and the database refuses an UPDATE', async () => {
    const acct = await createAccount(t.app);
    await call(t.app, acct.apiKey, 'POST', '/keys', { name: 'x' });
    const [entry] = (await audit(acct.apiKey, '?action=key.created')).entries;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/audit', `/audit/${entry!.id}`, '/admin/audit', `/admin/audit/${entry!.id}`]) {
        const res = await call(t.app, acct.apiKey, method, url, method === 'DELETE' ? undefined : { action: 'nothing' });
        expect([404, 405]).toContain(res.status);
      }
    }
    await expect(t.services.db.execute(sql`update audit_log set action = 'rewritten' where id = ${entry!.id}`)).rejects.toThrow();
    expect((await audit(acct.apiKey, '?action=key.created')).entries[0]).toEqual(entry);
  });
});

describe('audit log: retention', () => {
  it('deletes entries older than the audit retention period, and only those', async () => {
    const acct = await createAccount(t.app);
    await call(t.app, acct.apiKey, 'POST', '/keys', { name: 'kept' });
    // An entry as a change 401 days ago would have left it (written directly: the clock of a change is the database's).
    const old = '018f0000-0000-7000-8000-00000000a0d1';
    await t.services.db.execute(sql`insert into audit_log (id, created_at, account_id, actor_type, action, outcome)
      values (${old}, now() - interval '401 days', ${acct.accountId}, 'system', 'key.created', 'ok')`);
    expect((await audit(acct.apiKey, '?action=key.created')).entries).toHaveLength(2);
    await deleteEntriesBefore(t.services.db, { cutoff: retentionCutoff(new Date(), 400), limit: 1000 });
    expect((await audit(acct.apiKey, '?action=key.created')).entries.map((e) => e.after?.name)).toEqual(['kept']);
  });
});
