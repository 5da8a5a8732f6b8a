// The findings against the permission model, replayed as they were made: a low-privilege team member and a
// narrowly scoped key, each refused (403 permission_denied for a user, insufficient_scope for a key) with nothing
// changed; and the opt-out removal that needs `manage` and is recorded with who made it.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { acceptInvite, ownerSession, sessionCall, type TestSession } from '../support/sessions.ts';
import { accountState, teamMember } from '../support/permission-profiles.ts';

const t: TestApp = await createTestApp();
afterAll(async () => { await t.close(); });

/** An account with its owner signed in and a member holding neither can_send nor can_billing. */
async function accountWithMember() {
  const account = await createAccount(t.app, { hierarchy: true, credits: 100 });
  const owner = await ownerSession(t.app, account);
  const member = await teamMember(t.app, account, { role: 'member', can_send: false, can_billing: false });
  return { account, owner, member };
}

/** One JSON-RPC call to /mcp with a session cookie, as the dashboard's assistant would make it. */
async function mcpTool(s: TestSession, name: string, args: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST', url: '/mcp', cookies: { tasman_session: s.cookie },
    headers: { 'x-csrf-token': s.csrf, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  });
  expect(res.statusCode, res.body).toBe(200);
  const result = (res.json() as { result: { isError?: boolean; content: Array<{ text: string }> } }).result;
  return { isError: result.isError === true, body: JSON.parse(result.content[0]!.text) as Record<string, unknown> };
}

describe('a member with neither can_send nor can_billing', () => {
  it('cannot remove the owner: 403, and the owner still signs in', async () => {
    const { account, owner, member } = await accountWithMember();
    const before = await accountState(t.app, account);
    const res = await sessionCall(t.app, member, 'DELETE', `/team/${owner.userId}`);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'permission_denied', required_permission: 'manage' });
    expect((await sessionCall(t.app, owner, 'GET', '/session')).status).toBe(200);
    expect(await accountState(t.app, account)).toEqual(before);
  });

  it('cannot mint a key with every scope', async () => {
    const { account, member } = await accountWithMember();
    const before = await accountState(t.app, account);
    const res = await sessionCall(t.app, member, 'POST', '/keys', { name: 'full', scopes: ['read', 'send', 'billing', 'manage'] });
    expect(res.body).toMatchObject({ code: 'permission_denied', required_permission: 'manage' });
    expect(await accountState(t.app, account)).toEqual(before);
  });

  it('cannot send, move credits or add an opt-out through /mcp with its cookie', async () => {
    const { account, member } = await accountWithMember();
    const sub = await call(t.app, account.apiKey, 'POST', '/accounts', { business_name: 'Branch' });
    const before = await accountState(t.app, account);
    for (const [tool, args, needed] of [
      ['send_sms', { to: mobile(), message: 'hi' }, 'send'],
      ['allocate_credits', { account_id: sub.body.id, amount: 5 }, 'billing'],
      ['add_optout', { number: mobile() }, 'send'],
    ] as const) {
      const result = await mcpTool(member, tool, args);
      expect(result.isError, tool).toBe(true);
      expect(result.body, tool).toMatchObject({ code: 'permission_denied', required_permission: needed });
    }
    expect(await accountState(t.app, account)).toEqual(before);
  });

  it('cannot reply to an inbound message, seed a new sub-account or re-subscribe an opted-out number', async () => {
    const { account, member } = await accountWithMember();
    const stopped = mobile();
    expect((await call(t.app, account.apiKey, 'POST', '/optouts', { number: stopped })).status).toBe(201);
    const before = await accountState(t.app, account);
    const reply = await sessionCall(t.app, member, 'POST', `/inbox/${randomUUID()}/reply`, { message: 'hello' });
    expect(reply.body).toMatchObject({ code: 'permission_denied', required_permission: 'send' });
    const seeded = await sessionCall(t.app, member, 'POST', '/accounts', { business_name: 'Sneaky', seed_credits: 7 });
    expect(seeded.body).toMatchObject({ code: 'permission_denied', required_permission: 'manage' });
    const resub = await sessionCall(t.app, member, 'DELETE', `/optouts/${encodeURIComponent(stopped)}`);
    expect(resub.body).toMatchObject({ code: 'permission_denied', required_permission: 'manage' });
    expect(await accountState(t.app, account)).toEqual(before);
  });
});

describe('a key with the manage scope but not send or billing', () => {
  it('cannot invite a user who may send or handle billing, nor seed credits into a sub-account', async () => {
    const account = await createAccount(t.app, { hierarchy: true, credits: 100 });
    const keyWith = async (scopes: string[]) => (await admin(t.app, 'POST', `/admin/accounts/${account.accountId}/keys`, { name: 'm', scopes })).body.key as string;
    const manageOnly = await keyWith(['manage']);
    const key = await keyWith(['read', 'manage']);
    const before = await accountState(t.app, account);
    const email = `x-${randomUUID()}@example.test`;
    const invited = await call(t.app, manageOnly, 'POST', '/team', { email, can_send: true, can_billing: true });
    expect(invited.status).toBe(403);
    // Every member can read, which this key cannot: it can invite nobody.
    expect(invited.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'read' });
    const wider = await call(t.app, key, 'POST', '/team', { email, can_send: true, can_billing: true });
    expect(wider.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'send' });
    const seeded = await call(t.app, key, 'POST', '/accounts', { business_name: 'Seeded', seed_credits: 7 });
    expect(seeded.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'billing' });
    expect(await accountState(t.app, account)).toEqual(before);
    // What it holds it may give: a member who may do neither.
    const plain = await call(t.app, key, 'POST', '/team', { email: `y-${randomUUID()}@example.test`, can_send: false });
    expect(plain.status).toBe(201);
    const session = await acceptInvite(t.app, plain.body.invite_link as string);
    expect((await sessionCall(t.app, session, 'POST', '/send', { to: mobile(), message: 'hi' })).body.code).toBe('permission_denied');
  });
});

describe('removing an opt-out by hand', () => {
  it('needs manage, and records who did it', async () => {
    const account = await createAccount(t.app, { credits: 10 });
    const owner = await ownerSession(t.app, account);
    const number = mobile();
    await call(t.app, account.apiKey, 'POST', '/optouts', { number });
    const removed = await sessionCall(t.app, owner, 'DELETE', `/optouts/${encodeURIComponent(number)}`);
    expect(removed.status).toBe(200);
    await call(t.app, account.apiKey, 'POST', '/optouts', { number });
    expect((await call(t.app, account.apiKey, 'DELETE', `/optouts/${encodeURIComponent(number)}`)).status).toBe(200);
    const events = await rows<{ action: string; actor_user_id: string | null; actor_key_id: string | null }>(t.services.db, sql`
      select action, actor_user_id, actor_key_id from optout_events where account_id = ${account.accountId} and action = 'optin' order by created_at, id`);
    expect(events).toEqual([
      { action: 'optin', actor_user_id: owner.userId, actor_key_id: null },
      { action: 'optin', actor_user_id: null, actor_key_id: account.keyId },
    ]);
  });
});
