import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, createAccount } from '../support/factories.ts';
import { rows } from '../../src/platform/db/client.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

/** A request with a named operator's own token. */
async function as(token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

describe('named operators', () => {
  it('each has a token of their own, is named in the audit log for what they do, and is revoked alone', async () => {
    const priya = unique('Priya Raman');
    const added = await admin(t.app, 'POST', '/admin/operators', { name: priya });
    expect(added).toEqual({
      status: 201,
      body: {
        id: expect.any(String), name: priya, token: expect.stringMatching(/^tso_[\w-]{32}$/), token_prefix: (added.body.token as string).slice(0, 12),
        created_at: expect.any(String), created_by: 'operator', revoked_at: null, setup_url: expect.stringMatching(/^http.*\/operator\/setup#[\w-]{20,}$/),
      },
    });
    const token = added.body.token as string;
    // Names are unique among live operators, in any case.
    expect((await admin(t.app, 'POST', '/admin/operators', { name: priya.toUpperCase() })).body.code).toBe('conflict');

    // Her token opens every operator route: accounts, carriers' health, the operators themselves.
    const a = await createAccount(t.app);
    expect(await as(token, 'POST', `/admin/accounts/${a.accountId}/credits`, { amount: 7 })).toMatchObject({ status: 200, body: { credits: 12 } });
    expect((await as(token, 'GET', '/admin/health')).status).toBe(200);
    const sam = unique('Sam Ng');
    const byHer = await as(token, 'POST', '/admin/operators', { name: sam });
    expect(byHer.body).toMatchObject({ name: sam, created_by: priya });

    const entries = await rows<{ action: string; actor_type: string; actor_id: string | null; actor_label: string }>(t.services.db, sql`
      select action, actor_type, actor_id::text, actor_label from audit_log
      where (account_id = ${a.accountId} and action = 'credits.granted') or target_id in (${added.body.id as string}, ${byHer.body.id as string})
      order by created_at, id`);
    expect(entries).toEqual([
      { action: 'operator.created', actor_type: 'operator', actor_id: null, actor_label: 'operator' },
      { action: 'credits.granted', actor_type: 'operator', actor_id: added.body.id, actor_label: priya },
      { action: 'operator.created', actor_type: 'operator', actor_id: added.body.id, actor_label: priya },
    ]);

    const listed = await admin(t.app, 'GET', '/admin/operators');
    const names = (listed.body.operators as Array<{ name: string }>).map((o) => o.name);
    expect(names).toEqual(expect.arrayContaining([priya, sam]));
    expect(listed.body.total).toBe(names.length);
    expect(JSON.stringify(listed.body)).not.toContain(token);

    // Removed: her token stops at once, Sam's keeps working, and the bootstrap token still does.
    const removed = await as(byHer.body.token as string, 'DELETE', `/admin/operators/${added.body.id as string}`);
    expect(removed).toMatchObject({ status: 200, body: { name: priya, revoked_at: expect.any(String) } });
    expect(await as(token, 'GET', '/admin/operators')).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect((await as(byHer.body.token as string, 'GET', '/admin/operators')).status).toBe(200);
    expect((await admin(t.app, 'DELETE', `/admin/operators/${added.body.id as string}`)).status).toBe(404);
    const live = (await admin(t.app, 'GET', '/admin/operators')).body.operators as Array<{ name: string }>;
    expect(live.map((o) => o.name)).not.toContain(priya);
    const all = (await admin(t.app, 'GET', '/admin/operators?include_revoked=true')).body.operators as Array<{ name: string; revoked_at: string | null }>;
    expect(all.find((o) => o.name === priya)?.revoked_at).toEqual(expect.any(String));
    // The name is free again once its holder is removed.
    expect((await admin(t.app, 'POST', '/admin/operators', { name: priya })).status).toBe(201);
  });
});
