// Dashboard sign-in: invites, passwords, the session cookie as an actor, CSRF, expiry and revocation (failed
// sign-ins: sign-in-throttle.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { acceptInvite, inviteToken, ownerSession, PASSWORD, sessionCall } from '../support/sessions.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const login = (email: string, password: string, cookies: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/session', payload: { email, password }, cookies });

async function ownerWithEmail() {
  const email = `owner-${randomUUID()}@cafe.test`;
  const res = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Harbour Cafe', email, credits: 10 });
  return { email, accountId: res.body.account_id as string, apiKey: res.body.api_key as string, link: res.body.owner_invite_url as string };
}

describe('invites', () => {
  it('POST /admin/accounts returns an owner invite; the page names the account; a weak password is refused next to its field', async () => {
    const o = await ownerWithEmail();
    expect(o.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/app\/invite#[\w-]{43}$/);
    const info = await t.app.inject({ method: 'POST', url: '/invites/inspect', payload: { token: inviteToken(o.link) } });
    expect(info.json()).toEqual({ email: o.email, business_name: 'Harbour Cafe' });
    for (const password of ['short', 'password1234', 'qwerty123456']) {
      const weak = await t.app.inject({ method: 'POST', url: '/invites/accept', payload: { token: inviteToken(o.link), password } });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toMatchObject({ code: 'weak_password', details: [{ field: 'password' }] });
    }
  });

  it('accepting signs in with an HttpOnly, SameSite=Lax cookie (not Secure on http); the link then stops working', async () => {
    const o = await ownerWithEmail();
    const res = await t.app.inject({ method: 'POST', url: '/invites/accept', payload: { token: inviteToken(o.link), password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user: { email: o.email, can_send: true, can_billing: true }, account: { id: o.accountId, business_name: 'Harbour Cafe' } });
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('tasman_session='));
    expect(setCookie).toMatch(/^tasman_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const again = await t.app.inject({ method: 'POST', url: '/invites/accept', payload: { token: inviteToken(o.link), password: PASSWORD } });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('invite_invalid');
  });

  it('POST /team invites a member with an invite link; GET /team lists the owner and the member', async () => {
    const acct = await createAccount(t.app);
    const owner = await ownerSession(t.app, acct);
    const res = await sessionCall(t.app, owner, 'POST', '/team', { email: 'sam@cafe.test', can_send: false });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, email_sent: false, invite_link: expect.stringContaining('/app/invite#'), user: { email: 'sam@cafe.test', can_send: false } });
    const team = await call(t.app, acct.apiKey, 'GET', '/team');
    expect((team.body.users as Array<{ email: string }>).map((u) => u.email)).toContain('sam@cafe.test');
    expect(team.body.users).toHaveLength(2);
  });
});

describe('a session is an actor', () => {
  it('reads with the cookie; writes need X-CSRF-Token; a key request ignores the cookie', async () => {
    const acct = await createAccount(t.app, { credits: 10 });
    const s = await ownerSession(t.app, acct);
    expect((await sessionCall(t.app, s, 'GET', '/balance', undefined, { csrf: false })).body).toEqual({ credits: 10 });
    const noCsrf = await sessionCall(t.app, s, 'POST', '/send', { to: mobile(), message: 'hi' }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_failed');
    const wrong = await t.app.inject({ method: 'POST', url: '/send', cookies: { tasman_session: s.cookie }, headers: { 'x-csrf-token': 'x'.repeat(43) }, payload: { to: mobile(), message: 'hi' } });
    expect(wrong.statusCode).toBe(403);
    expect((await sessionCall(t.app, s, 'GET', '/balance')).body).toEqual({ credits: 10 });
    const sent = await sessionCall(t.app, s, 'POST', '/send', { to: mobile(), message: 'hi' });
    expect(sent.status).toBe(200);
    expect(sent.body.credits_remaining).toBe(9);
    const other = await createAccount(t.app, { credits: 3 });
    const both = await t.app.inject({ method: 'GET', url: '/balance', cookies: { tasman_session: s.cookie }, headers: { authorization: `Bearer ${other.apiKey}` } });
    expect(both.json()).toEqual({ credits: 3 });
  });

  it('own API keys: created through the session, shown once, usable at once, revocable', async () => {
    const acct = await createAccount(t.app);
    const s = await ownerSession(t.app, acct);
    const created = await sessionCall(t.app, s, 'POST', '/keys', { name: 'Website' });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    expect((await call(t.app, key, 'GET', '/balance')).status).toBe(200);
    const list = await sessionCall(t.app, s, 'GET', '/keys');
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect((list.body.keys as Array<{ name: string }>).map((k) => k.name)).toEqual(['Website', 'Default']);
    expect((await sessionCall(t.app, s, 'DELETE', `/keys/${created.body.id}`)).status).toBe(200);
    expect((await call(t.app, key, 'GET', '/balance')).status).toBe(401);
    const stranger = await createAccount(t.app);
    expect((await sessionCall(t.app, s, 'DELETE', `/keys/${stranger.keyId}`)).status).toBe(404);
    expect((await call(t.app, stranger.apiKey, 'GET', '/balance')).status).toBe(200);
  });

  it('another tenant\'s message is 404 through a session, exactly like a missing one', async () => {
    const mine = await createAccount(t.app);
    const theirs = await createAccount(t.app);
    const s = await ownerSession(t.app, mine);
    const sent = await call(t.app, theirs.apiKey, 'POST', '/send', { to: mobile(), message: 'private' });
    const other = await sessionCall(t.app, s, 'GET', `/message/${sent.body.message_id}`);
    const missing = await sessionCall(t.app, s, 'GET', `/message/${randomUUID()}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(missing.body);
  });
});

describe('permissions', () => {
  it('can_send false: reads fine, sending 403; a member invites nobody (manage is an admin\'s)', async () => {
    const acct = await createAccount(t.app);
    const owner = await ownerSession(t.app, acct);
    const invited = await sessionCall(t.app, owner, 'POST', '/team', { email: 'viewer@cafe.test', can_send: false, can_billing: false });
    const viewer = await acceptInvite(t.app, invited.body.invite_link as string);
    expect((await sessionCall(t.app, viewer, 'GET', '/balance')).status).toBe(200);
    const send = await sessionCall(t.app, viewer, 'POST', '/send', { to: mobile(), message: 'hi' });
    expect(send.status).toBe(403);
    expect(send.body.code).toBe('permission_denied');
    expect((await sessionCall(t.app, viewer, 'POST', '/send-batch', { message: 'hi', recipients: [mobile()] })).status).toBe(403);
    expect((await sessionCall(t.app, viewer, 'POST', '/numbers/purchase', {})).body.code).toBe('permission_denied');
    expect((await sessionCall(t.app, viewer, 'POST', '/team', { email: 'x@cafe.test' })).body.code).toBe('permission_denied');
    expect((await sessionCall(t.app, viewer, 'POST', '/team', { email: 'y@cafe.test', can_send: false, can_billing: true })).body.code).toBe('permission_denied');
    const none = await sessionCall(t.app, viewer, 'POST', '/team', { email: 'z@cafe.test', can_send: false });
    expect(none.body).toMatchObject({ code: 'permission_denied', required_permission: 'manage' });
  });
});

describe('sign-in', () => {
  it('email (any case) and password; wrong password 401; GET /session says who; sign-out ends the session', async () => {
    const o = await ownerWithEmail();
    await acceptInvite(t.app, o.link);
    const bad = await login(o.email, 'not-the-password!');
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('invalid_credentials');
    expect((await login(`nobody-${randomUUID()}@x.test`, PASSWORD)).statusCode).toBe(401);
    const ok = await login(o.email.toUpperCase(), PASSWORD);
    expect(ok.statusCode).toBe(200);
    const cookie = ok.cookies.find((c) => c.name === 'tasman_session')!.value;
    const csrf = ok.json().csrf_token as string;
    const me = await t.app.inject({ method: 'GET', url: '/session', cookies: { tasman_session: cookie } });
    expect(me.json()).toMatchObject({ csrf_token: csrf, user: { email: o.email }, account: { id: o.accountId } });
    const noCsrf = await t.app.inject({ method: 'DELETE', url: '/session', cookies: { tasman_session: cookie } });
    expect(noCsrf.statusCode).toBe(403);
    const out = await t.app.inject({ method: 'DELETE', url: '/session', cookies: { tasman_session: cookie }, headers: { 'x-csrf-token': csrf } });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^tasman_session=; Max-Age=0/);
    expect((await t.app.inject({ method: 'GET', url: '/balance', cookies: { tasman_session: cookie } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/session', cookies: { tasman_session: cookie } })).statusCode).toBe(401);
  });

  it('session fixation: a cookie planted before sign-in is replaced and ended, never promoted', async () => {
    const victim = await ownerWithEmail();
    await acceptInvite(t.app, victim.link);
    const attacker = await ownerWithEmail();
    const planted = await acceptInvite(t.app, attacker.link);
    const res = await login(victim.email, PASSWORD, { tasman_session: planted.cookie });
    const issued = res.cookies.find((c) => c.name === 'tasman_session')!.value;
    expect(issued).not.toBe(planted.cookie);
    expect((await t.app.inject({ method: 'GET', url: '/session', cookies: { tasman_session: planted.cookie } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/session', cookies: { tasman_session: issued } })).json().account.id).toBe(victim.accountId);
  });

  it('a session idle for 12 hours has ended; one used within them lives on', async () => {
    const acct = await createAccount(t.app);
    const s = await ownerSession(t.app, acct);
    await t.services.db.execute(sql`update sessions set last_seen_at = now() - interval '11 hours 59 minutes' where user_id = ${s.userId}`);
    expect((await sessionCall(t.app, s, 'GET', '/balance')).status).toBe(200);
    await t.services.db.execute(sql`update sessions set last_seen_at = now() - interval '12 hours 1 minute' where user_id = ${s.userId}`);
    expect((await sessionCall(t.app, s, 'GET', '/balance')).status).toBe(401);
  });

  it('removing a user ends their sessions on the next request; nobody removes themselves', async () => {
    const acct = await createAccount(t.app);
    const owner = await ownerSession(t.app, acct);
    const invited = await sessionCall(t.app, owner, 'POST', '/team', { email: 'temp@cafe.test' });
    const temp = await acceptInvite(t.app, invited.body.invite_link as string);
    expect((await sessionCall(t.app, temp, 'GET', '/balance')).status).toBe(200);
    expect((await sessionCall(t.app, owner, 'DELETE', `/team/${owner.userId}`)).status).toBe(403);
    expect((await sessionCall(t.app, owner, 'DELETE', `/team/${temp.userId}`)).status).toBe(200);
    expect((await sessionCall(t.app, temp, 'GET', '/balance')).status).toBe(401);
    expect((await login('temp@cafe.test', PASSWORD)).statusCode).toBe(401);
  });

  it('cookies are Secure when PUBLIC_URL is https', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://sms.example.com' });
    try {
      const acct = await createAccount(secure.app);
      expect(acct.ownerInviteUrl).toMatch(/^https:\/\/sms\.example\.com\/app\/invite#/);
      const res = await secure.app.inject({ method: 'POST', url: '/invites/accept', payload: { token: inviteToken(acct.ownerInviteUrl!), password: PASSWORD } });
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });
});

describe('the operator console', () => {
  it('signs in with the operator token only; its cookie works on /admin with CSRF on writes', async () => {
    const acct = await createAccount(t.app, { credits: 1 });
    expect((await t.app.inject({ method: 'GET', url: `/admin/accounts/${acct.accountId}` })).statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'POST', url: '/session/operator', payload: { token: 'nope' } });
    expect(wrong.statusCode).toBe(401);
    const res = await t.app.inject({ method: 'POST', url: '/session/operator', payload: { token: ADMIN_TOKEN } });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'tasman_operator')!.value;
    const csrf = res.json().csrf_token as string;
    const read = await t.app.inject({ method: 'GET', url: `/admin/accounts/${acct.accountId}`, cookies: { tasman_operator: cookie } });
    expect(read.json().credits).toBe(1);
    const noCsrf = await t.app.inject({ method: 'POST', url: `/admin/accounts/${acct.accountId}/credits`, cookies: { tasman_operator: cookie }, payload: { amount: 5 } });
    expect(noCsrf.statusCode).toBe(403);
    const topUp = await t.app.inject({ method: 'POST', url: `/admin/accounts/${acct.accountId}/credits`, cookies: { tasman_operator: cookie }, headers: { 'x-csrf-token': csrf }, payload: { amount: 5 } });
    expect(topUp.json()).toEqual({ account_id: acct.accountId, credits: 6 });
    // A user session is not an operator session.
    const owner = await ownerSession(t.app, acct);
    expect((await t.app.inject({ method: 'GET', url: `/admin/accounts/${acct.accountId}`, cookies: { tasman_operator: owner.cookie } })).statusCode).toBe(401);
    await t.app.inject({ method: 'DELETE', url: '/session/operator', cookies: { tasman_operator: cookie } });
    expect((await t.app.inject({ method: 'GET', url: `/admin/accounts/${acct.accountId}`, cookies: { tasman_operator: cookie } })).statusCode).toBe(401);
  });
});
