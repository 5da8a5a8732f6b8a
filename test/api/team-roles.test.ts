// Roles in a team: the owner, admins and members; changing a role or flags cuts the member's keys down at once,
// removing them revokes their keys, and ownership moves only by the owner's transfer to an admin.
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { ownerSession, sessionCall, type TestSession } from '../support/sessions.ts';
import { teamMember } from '../support/permission-profiles.ts';

const t: TestApp = await createTestApp();
afterAll(async () => { await t.close(); });

type Key = { id: string; key: string; scopes: string[]; created_by_user?: string | null; revoked_at?: string | null };
const keysOf = async (s: TestSession) => (await sessionCall(t.app, s, 'GET', '/keys')).body.keys as Key[];

describe('roles', () => {
  it('the first user is the owner; invites are members unless made admins; GET /team and /session say so', async () => {
    const account = await createAccount(t.app);
    const owner = await ownerSession(t.app, account);
    const adminUser = await teamMember(t.app, account, { role: 'admin' });
    await teamMember(t.app, account, { role: 'member', can_send: true });
    const team = (await sessionCall(t.app, owner, 'GET', '/team')).body.users as Array<{ role: string; can_send: boolean; can_billing: boolean }>;
    expect(team.map((u) => [u.role, u.can_send, u.can_billing])).toEqual([['owner', true, true], ['admin', true, true], ['member', true, false]]);
    const me = await sessionCall(t.app, adminUser, 'GET', '/session');
    expect(me.body.user).toMatchObject({ role: 'admin', permissions: ['read', 'send', 'billing', 'manage'] });
  });

  it('PATCH changes a member\'s flags and role; nobody changes themselves or the owner; an admin cannot be half an admin', async () => {
    const account = await createAccount(t.app);
    const owner = await ownerSession(t.app, account);
    const adminUser = await teamMember(t.app, account, { role: 'admin' });
    const member = await teamMember(t.app, account, { role: 'member', can_send: false });
    const up = await sessionCall(t.app, adminUser, 'PATCH', `/team/${member.userId}`, { can_send: true });
    expect(up.status).toBe(200);
    expect(up.body.user).toMatchObject({ role: 'member', can_send: true, can_billing: false });
    expect((await sessionCall(t.app, member, 'POST', '/send/preview', { to: mobile(), message: 'hi' })).status).toBe(200);
    expect((await sessionCall(t.app, adminUser, 'PATCH', `/team/${adminUser.userId}`, { role: 'member' })).body.code).toBe('forbidden');
    expect((await sessionCall(t.app, adminUser, 'PATCH', `/team/${owner.userId}`, { role: 'member' })).body.code).toBe('permission_denied');
    expect((await sessionCall(t.app, adminUser, 'DELETE', `/team/${owner.userId}`)).body.code).toBe('permission_denied');
    expect((await sessionCall(t.app, owner, 'PATCH', `/team/${adminUser.userId}`, { can_send: false })).body.code).toBe('validation_failed');
    const promoted = await sessionCall(t.app, owner, 'PATCH', `/team/${member.userId}`, { role: 'admin' });
    expect(promoted.body.user).toMatchObject({ role: 'admin', can_send: true, can_billing: true });
    // The change holds from the member's very next request.
    expect((await sessionCall(t.app, member, 'GET', '/session')).body.user).toMatchObject({ role: 'admin' });
  });

  it('a member\'s keys carry at most their permissions: cut down when they lose one, revoked when they are removed', async () => {
    const account = await createAccount(t.app, { credits: 10 });
    const owner = await ownerSession(t.app, account);
    const adminUser = await teamMember(t.app, account, { role: 'admin' });
    const made = await sessionCall(t.app, adminUser, 'POST', '/keys', { name: 'admin key' });
    expect(made.body).toMatchObject({ scopes: ['read', 'send', 'billing', 'manage'] });
    // A key made by that key belongs to the same user.
    const second = await call(t.app, made.body.key as string, 'POST', '/keys', { name: 'made by a key', scopes: ['billing', 'manage'] });
    expect(second.status).toBe(201);
    const mine = (await keysOf(owner)).filter((k) => k.created_by_user === adminUser.userId);
    expect(mine.map((k) => k.id).sort()).toEqual([made.body.id, second.body.id].sort());

    const demoted = await sessionCall(t.app, owner, 'PATCH', `/team/${adminUser.userId}`, { role: 'member', can_send: true, can_billing: false });
    expect(demoted.body).toMatchObject({ keys_revoked: 1, keys_narrowed: 1 });
    const after = await keysOf(owner);
    expect(after.find((k) => k.id === made.body.id)).toMatchObject({ scopes: ['read', 'send'], revoked_at: null });
    expect(after.find((k) => k.id === second.body.id)?.revoked_at).not.toBeNull();
    expect((await call(t.app, made.body.key as string, 'POST', '/keys', { name: 'x', scopes: ['read'] })).body.code).toBe('insufficient_scope');
    expect((await call(t.app, made.body.key as string, 'GET', '/balance')).status).toBe(200);

    const removed = await sessionCall(t.app, owner, 'DELETE', `/team/${adminUser.userId}`);
    expect(removed.body).toEqual({ ok: true, keys_revoked: 1 });
    expect((await call(t.app, made.body.key as string, 'GET', '/balance')).status).toBe(401);
    expect((await sessionCall(t.app, adminUser, 'GET', '/balance')).status).toBe(401);
  });

  it('an admin cannot give or touch what it lacks; a member cannot change anyone', async () => {
    const account = await createAccount(t.app);
    const member = await teamMember(t.app, account, { role: 'member', can_send: true, can_billing: true });
    const other = await teamMember(t.app, account, { role: 'member', can_send: false });
    expect((await sessionCall(t.app, member, 'PATCH', `/team/${other.userId}`, { can_send: true })).body.code).toBe('permission_denied');
    const keyRead = (await call(t.app, account.apiKey, 'POST', '/keys', { scopes: ['read', 'manage'] })).body.key as string;
    const touched = await call(t.app, keyRead, 'PATCH', `/team/${member.userId}`, { can_send: false });
    expect(touched.body).toMatchObject({ code: 'insufficient_scope' });
    const team = (await call(t.app, account.apiKey, 'GET', '/team')).body.users as Array<{ id: string; can_send: boolean }>;
    expect(team.find((u) => u.id === member.userId)?.can_send).toBe(true);
  });
});

describe('ownership', () => {
  it('moves only by the owner\'s transfer to an admin, in one step: always exactly one owner', async () => {
    const account = await createAccount(t.app);
    const owner = await ownerSession(t.app, account);
    const adminUser = await teamMember(t.app, account, { role: 'admin' });
    const member = await teamMember(t.app, account, { role: 'member' });
    expect((await sessionCall(t.app, owner, 'POST', '/team/transfer-ownership', { member_id: member.userId })).body.code).toBe('conflict');
    expect((await sessionCall(t.app, adminUser, 'POST', '/team/transfer-ownership', { member_id: adminUser.userId })).body)
      .toMatchObject({ code: 'permission_denied', required_permission: 'owner' });
    expect((await call(t.app, account.apiKey, 'POST', '/team/transfer-ownership', { member_id: adminUser.userId })).body)
      .toMatchObject({ code: 'insufficient_scope', required_scope: 'owner' });
    const moved = await sessionCall(t.app, owner, 'POST', '/team/transfer-ownership', { member_id: adminUser.userId });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ owner: { id: adminUser.userId, role: 'owner' }, previous_owner: { id: owner.userId, role: 'admin' } });
    const roles = ((await call(t.app, account.apiKey, 'GET', '/team')).body.users as Array<{ role: string }>).map((u) => u.role);
    expect(roles.filter((r) => r === 'owner')).toHaveLength(1);
    // The old owner is an admin now: it cannot hand the account over again, nor remove the new owner.
    expect((await sessionCall(t.app, owner, 'POST', '/team/transfer-ownership', { member_id: adminUser.userId })).status).toBe(403);
    expect((await sessionCall(t.app, owner, 'DELETE', `/team/${adminUser.userId}`)).body.code).toBe('permission_denied');
  });
});
