import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { uuidv7 } from '../../src/platform/ids.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const MISSING = '01a1fc97-f1e8-765e-92c4-fdeb302ed871';

async function family(app: FastifyInstance, body: object = {}) {
  const parent = await createAccount(app, { credits: 100, hierarchy: true });
  const created = await call(app, parent.apiKey, 'POST', '/accounts', { business_name: 'Child Co', seed_credits: 5, ...body });
  const childId = created.body.id as string;
  const key = await call(app, parent.apiKey, 'POST', `/account/${childId}/key`, { name: 'k' });
  return { parent, childId, childKey: key.body.key as string };
}


describe('sub-account users', () => {
  it('invites (201: the first user is the owner), lists, refuses a duplicate email (409, any case) and removes', async () => {
    const { parent, childId } = await family(t.app);
    const res = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/users`, { email: 'ann@acme.test', name: 'Ann', can_send: true, can_billing: true });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true, email_sent: false, invite_link: expect.stringMatching(/\/app\/invite#[\w-]+$/),
      user: {
        id: expect.any(String), email: 'ann@acme.test', name: 'Ann', can_send: true, can_billing: true, role: 'owner', status: 'active', source: 'direct',
        two_factor: false, created_at: expect.any(String), invited_at: expect.any(String),
      },
    });
    const dup = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/users`, { email: 'ANN@acme.test' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('email_taken');
    const bob = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/users`, { email: 'bob@acme.test' });
    expect((bob.body.user as Record<string, unknown>)).toMatchObject({ name: null, can_send: true, can_billing: false, role: 'member' });

    const list = await call(t.app, parent.apiKey, 'GET', `/account/${childId}/users`);
    expect((list.body.users as Array<{ email: string }>).map((u) => u.email)).toEqual(['ann@acme.test', 'bob@acme.test']);
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${childId}`)).body.account).toMatchObject({ user_count: 2 });

    // Nobody removes the owner, the parent neither.
    const annId = (res.body.user as { id: string }).id;
    expect((await call(t.app, parent.apiKey, 'DELETE', `/account/${childId}/users/${annId}`)).body.code).toBe('permission_denied');
    const bobId = (bob.body.user as { id: string }).id;
    const removed = await call(t.app, parent.apiKey, 'DELETE', `/account/${childId}/users/${bobId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true, keys_revoked: 0 });
    expect((await call(t.app, parent.apiKey, 'DELETE', `/account/${childId}/users/${bobId}`)).status).toBe(404);
    expect(((await call(t.app, parent.apiKey, 'GET', `/account/${childId}/users`)).body.users as unknown[])).toHaveLength(1);
    // Once removed, the email may be invited again.
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${childId}/users`, { email: 'bob@acme.test' })).status).toBe(201);
  });

  it('the same email may be on two accounts; a member id of another account is 404', async () => {
    const { parent, childId } = await family(t.app);
    const second = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Second' });
    const a = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/users`, { email: 'same@x.test' });
    const b = await call(t.app, parent.apiKey, 'POST', `/account/${second.body.id}/users`, { email: 'same@x.test' });
    expect([a.status, b.status]).toEqual([201, 201]);
    const bId = (b.body.user as { id: string }).id;
    expect((await call(t.app, parent.apiKey, 'DELETE', `/account/${childId}/users/${bId}`)).status).toBe(404);
    expect((await call(t.app, parent.apiKey, 'DELETE', `/account/${childId}/users/${MISSING}`)).status).toBe(404);
  });

  it('400 for a bad email or wrongly typed flags', async () => {
    const { parent, childId } = await family(t.app);
    for (const body of [{}, { email: 'nope' }, { email: 'a@b.test', can_send: 'yes' }]) {
      expect((await call(t.app, parent.apiKey, 'POST', `/account/${childId}/users`, body)).status).toBe(400);
    }
  });
});

describe('GET /team and access', () => {
  // A top-level account's members are its owner (made with the account) and whoever POST /team invites; here the
  // parent's staff member is seeded straight into the table, and the owner left out of the comparisons.
  async function parentMember(accountId: string, email: string) {
    await t.services.db.execute(sql`insert into account_users (id, account_id, email, name) values (${uuidv7()}, ${accountId}, ${email}, 'Parent staff')`);
  }

  it('/team shows the caller\'s own users, plus the parent\'s (source "parent") when team_access_from_parent is on', async () => {
    const { parent, childId, childKey } = await family(t.app);
    await parentMember(parent.accountId, 'staff@parent.test');
    await call(t.app, parent.apiKey, 'POST', `/account/${childId}/users`, { email: 'kid@x.test' });
    const pairs = (body: Record<string, unknown>) => (body.users as Array<{ email: string; source: string }>)
      .filter((u) => !u.email.startsWith('owner-')).map((u) => [u.email, u.source]);
    expect(pairs((await call(t.app, parent.apiKey, 'GET', '/team')).body)).toEqual([['staff@parent.test', 'direct']]);
    expect(pairs((await call(t.app, childKey, 'GET', '/team')).body)).toEqual([['kid@x.test', 'direct']]);
    await call(t.app, parent.apiKey, 'PUT', `/account/${childId}/access`, { team_access_from_parent: true });
    expect(pairs((await call(t.app, childKey, 'GET', '/team')).body)).toEqual([['kid@x.test', 'direct'], ['staff@parent.test', 'parent']]);
  });

  it('GET /access lists the direct team and the parent\'s eligible team; PUT changes the flags', async () => {
    const { parent, childId } = await family(t.app);
    await parentMember(parent.accountId, 'staff@parent.test');
    await call(t.app, parent.apiKey, 'POST', `/account/${childId}/users`, { email: 'kid@x.test', name: 'Kid' });
    const got = await call(t.app, parent.apiKey, 'GET', `/account/${childId}/access`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      managed_by_parent: true, team_access_from_parent: false,
      direct_team: [expect.objectContaining({ email: 'kid@x.test', name: 'Kid', source: 'direct' })],
      eligible_parent_team: [
        expect.objectContaining({ email: expect.stringMatching(/^owner-/), source: 'parent', can_billing: true }),
        expect.objectContaining({ email: 'staff@parent.test', source: 'parent' }),
      ],
    });
    const put = await call(t.app, parent.apiKey, 'PUT', `/account/${childId}/access`, { team_access_from_parent: true });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ok: true });
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${childId}/access`)).body.team_access_from_parent).toBe(true);
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${childId}`)).body.account).toMatchObject({ team_access_from_parent: true });
  });

  it('handing a sub-account over (managed_by_parent false) needs an email and is one-way for the parent', async () => {
    const noEmail = await family(t.app);
    const refused = await call(t.app, noEmail.parent.apiKey, 'PUT', `/account/${noEmail.childId}/access`, { managed_by_parent: false });
    expect(refused.status).toBe(400);
    const { parent, childId } = await family(t.app, { email: 'boss@child.test' });
    expect((await call(t.app, parent.apiKey, 'PUT', `/account/${childId}/access`, { managed_by_parent: false })).status).toBe(200);
    const back = await call(t.app, parent.apiKey, 'PUT', `/account/${childId}/access`, { managed_by_parent: true });
    expect(back.status).toBe(403);
    expect(back.body.code).toBe('not_managed_by_parent');
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${childId}/users`, { email: 'x@y.test' })).body.code).toBe('not_managed_by_parent');
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${childId}/access`)).body.managed_by_parent).toBe(false);
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${childId}/users`)).status).toBe(200);
  });
});
