// The optional TOTP second factor: enrolment, the sign-in's second step, replay, lockout, recovery codes, turning
// it off, an owner's reset, and a password reset that leaves it on. Codes come from otplib with the secret, at the
// app's fixed clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call } from '../support/factories.ts';
import { acceptInvite, PASSWORD, sessionCall, type TestSession } from '../support/sessions.ts';

// The app's clock, moved by the tests: 10 s into a 30-second step.
const START = new Date('2026-11-22T10:00:10Z');
let clock = START;
const at = (seconds: number) => { clock = new Date(START.getTime() + seconds * 1000); };
const codeAt = (secret: string, seconds: number) => generate({ secret, epoch: Math.floor(START.getTime() / 1000) + seconds });

let t: TestApp;
beforeAll(async () => { t = await createTestApp({}, { now: () => clock }); });
afterAll(async () => { await t.close(); });

const login = (email: string, password = PASSWORD, cookies: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/session', payload: { email, password }, cookies });
const second = (challenge: string, code: string, cookies: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/session/two-factor', payload: { challenge, code }, cookies });
const cookieOf = (res: Awaited<ReturnType<typeof login>>) => res.cookies.find((c) => c.name === 'tasman_session')?.value;

async function challengeFor(email: string, cookies: Record<string, string> = {}): Promise<string> {
  const res = await login(email, PASSWORD, cookies);
  expect(res.statusCode).toBe(202);
  return res.json().challenge as string;
}

interface Owner { email: string; accountId: string; apiKey: string; session: TestSession }

async function owner(): Promise<Owner> {
  const email = `owner-${randomUUID()}@cafe.test`;
  const res = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Harbour Cafe', email });
  const session = await acceptInvite(t.app, res.body.owner_invite_url as string);
  return { email, accountId: res.body.account_id as string, apiKey: res.body.api_key as string, session };
}

/** Enrols and confirms at the clock's step (which the confirmation spends); returns the secret and recovery codes. */
async function enrolled(o: Owner) {
  const enrol = await sessionCall(t.app, o.session, 'POST', '/two-factor/enrol', {});
  const secret = enrol.body.secret as string;
  const confirm = await sessionCall(t.app, o.session, 'POST', '/two-factor/confirm', { code: await codeAt(secret, 0) });
  expect(confirm.status).toBe(200);
  return { secret, recovery: confirm.body.recovery_codes as string[] };
}

describe('enrolment', () => {
  it('shows the secret and its otpauth URI once, turns on with the first code, and keeps the secret sealed', async () => {
    at(0);
    const o = await owner();
    expect((await sessionCall(t.app, o.session, 'GET', '/two-factor')).body).toEqual({ enabled: false, pending: false, recovery_codes_left: 0 });
    const enrol = await sessionCall(t.app, o.session, 'POST', '/two-factor/enrol', {});
    expect(enrol.status).toBe(200);
    const secret = enrol.body.secret as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrol.body.otpauth_uri).toBe(`otpauth://totp/Tasman:${encodeURIComponent(o.email)}?secret=${secret}&issuer=Tasman`);
    expect((await sessionCall(t.app, o.session, 'GET', '/two-factor')).body).toMatchObject({ enabled: false, pending: true });
    // Pending is not on: sign-in still takes the password alone.
    expect((await login(o.email)).statusCode).toBe(200);

    const wrong = await sessionCall(t.app, o.session, 'POST', '/two-factor/confirm', { code: await codeAt(secret, 90) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'validation_failed', details: [{ field: 'code' }] });
    const confirm = await sessionCall(t.app, o.session, 'POST', '/two-factor/confirm', { code: await codeAt(secret, 0) });
    expect(confirm.status).toBe(200);
    const codes = confirm.body.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect((await sessionCall(t.app, o.session, 'GET', '/two-factor')).body).toEqual({ enabled: true, pending: false, recovery_codes_left: 10 });
    expect((await sessionCall(t.app, o.session, 'POST', '/two-factor/enrol', {})).status).toBe(409);

    const [row] = await rows<{ sealed: string; hashes: string }>(t.services.db, sql`
      select encode(u.totp_secret_sealed, 'escape') as sealed, (select string_agg(code_hash, ',') from user_recovery_codes r where r.user_id = u.id) as hashes
      from account_users u where u.id = ${o.session.userId}`);
    expect(row!.sealed).not.toContain(secret);
    for (const c of codes) expect(row!.hashes).not.toContain(c.replace('-', ''));
  });

  it('belongs to a signed-in user: an API key is refused, and a write needs the CSRF header', async () => {
    const o = await owner();
    const byKey = await call(t.app, o.apiKey, 'POST', '/two-factor/enrol', {});
    expect(byKey.status).toBe(403);
    expect(byKey.body.code).toBe('forbidden');
    expect((await sessionCall(t.app, o.session, 'POST', '/two-factor/enrol', {}, { csrf: false })).body.code).toBe('csrf_failed');
  });
});

describe('sign-in with a second factor', () => {
  it('asks for the code after the password; a wrong code is refused; the right one signs in', async () => {
    at(0);
    const o = await owner();
    const { secret } = await enrolled(o);
    const res = await login(o.email);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ second_factor_required: true, expires_in: 300 });
    expect(res.headers['set-cookie']).toBeUndefined();
    const challenge = res.json().challenge as string;
    at(30);
    const wrong = await second(challenge, await codeAt(secret, 120));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'invalid_code', details: [{ field: 'code' }] });
    const ok = await second(challenge, await codeAt(secret, 30));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.email).toBe(o.email);
    const cookie = cookieOf(ok)!;
    expect((await t.app.inject({ method: 'GET', url: '/balance', cookies: { tasman_session: cookie } })).statusCode).toBe(200);
    // The challenge opened its one session.
    expect((await second(challenge, await codeAt(secret, 60))).json().code).toBe('unauthorized');
  });

  it('a code works once (replay refused), within one step either side of now', async () => {
    at(0);
    const o = await owner();
    const { secret } = await enrolled(o);
    // The confirming code's step is spent too.
    expect((await second(await challengeFor(o.email), await codeAt(secret, 0))).statusCode).toBe(401);
    at(30);
    expect((await second(await challengeFor(o.email), await codeAt(secret, 30))).statusCode).toBe(200);
    const replay = await second(await challengeFor(o.email), await codeAt(secret, 30));
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('invalid_code');
    // The next step's code is early but accepted (+1); then two steps behind is too old, one behind is fine.
    expect((await second(await challengeFor(o.email), await codeAt(secret, 60))).statusCode).toBe(200);
    at(150);
    expect((await second(await challengeFor(o.email), await codeAt(secret, 90))).statusCode).toBe(401);
    expect((await second(await challengeFor(o.email), await codeAt(secret, 120))).statusCode).toBe(200);
  });

  it('failed codes count towards the email\'s delay like failed passwords; re-entering the password buys no more guesses', async () => {
    at(0);
    const o = await owner();
    const { secret } = await enrolled(o);
    at(30);
    const bad = await codeAt(secret, 300);
    let challenge = await challengeFor(o.email);
    for (let i = 0; i < 3; i++) expect((await second(challenge, bad)).statusCode).toBe(401);
    challenge = await challengeFor(o.email);
    for (let i = 0; i < 2; i++) expect((await second(challenge, bad)).statusCode).toBe(401);
    expect((await login(o.email, 'wrong-password-here')).statusCode).toBe(401);
    const waiting = await second(challenge, await codeAt(secret, 30));
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().code).toBe('login_locked');
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await login(o.email)).statusCode).toBe(429);
    // The wait ends two seconds later: moved into the past here rather than waited for.
    await t.services.db.execute(sql`update auth_failures set last_failed_at = last_failed_at - interval '3 seconds' where key = ${`email:${o.email}`}`);
    expect((await second(await challengeFor(o.email), await codeAt(secret, 30))).statusCode).toBe(200);
  });

  it('a recovery code signs in once, in any case and spacing', async () => {
    at(0);
    const o = await owner();
    const { recovery } = await enrolled(o);
    const typed = recovery[3]!.toUpperCase().replace('-', ' ');
    const ok = await second(await challengeFor(o.email), typed);
    expect(ok.statusCode).toBe(200);
    expect((await second(await challengeFor(o.email), recovery[3]!)).statusCode).toBe(401);
    const s = { cookie: cookieOf(ok)!, csrf: ok.json().csrf_token as string, userId: o.session.userId };
    expect((await sessionCall(t.app, s, 'GET', '/two-factor')).body.recovery_codes_left).toBe(9);
  });

  it('session fixation still holds: the cookie planted before the password step is ended, never promoted', async () => {
    at(0);
    const victim = await owner();
    const { secret } = await enrolled(victim);
    const attacker = await owner();
    const planted = { tasman_session: attacker.session.cookie };
    const challenge = await challengeFor(victim.email, planted);
    at(30);
    const res = await second(challenge, await codeAt(secret, 30), planted);
    const issued = cookieOf(res)!;
    expect(issued).not.toBe(attacker.session.cookie);
    expect((await t.app.inject({ method: 'GET', url: '/session', cookies: planted })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/session', cookies: { tasman_session: issued } })).json().account.id).toBe(victim.accountId);
  });

  it('an expired challenge is refused', async () => {
    at(0);
    const o = await owner();
    const { secret } = await enrolled(o);
    const challenge = await challengeFor(o.email);
    await t.services.db.execute(sql`update login_challenges set expires_at = now() - interval '1 second' where user_id = ${o.session.userId}`);
    at(30);
    const res = await second(challenge, await codeAt(secret, 30));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });
});

describe('turning it off', () => {
  it('needs a current code or the password; afterwards the password alone signs in', async () => {
    at(0);
    const o = await owner();
    const { secret } = await enrolled(o);
    at(30);
    expect((await sessionCall(t.app, o.session, 'POST', '/two-factor/disable', {})).status).toBe(400);
    const wrongPassword = await sessionCall(t.app, o.session, 'POST', '/two-factor/disable', { password: 'not-my-password' });
    expect(wrongPassword.body).toMatchObject({ code: 'validation_failed', details: [{ field: 'password' }] });
    expect((await sessionCall(t.app, o.session, 'POST', '/two-factor/disable', { code: await codeAt(secret, 0) })).status).toBe(400);
    expect((await sessionCall(t.app, o.session, 'POST', '/two-factor/disable', { code: await codeAt(secret, 30) })).status).toBe(200);
    expect((await sessionCall(t.app, o.session, 'GET', '/two-factor')).body).toEqual({ enabled: false, pending: false, recovery_codes_left: 0 });
    expect((await login(o.email)).statusCode).toBe(200);

    await enrolled(o);
    expect((await sessionCall(t.app, o.session, 'POST', '/two-factor/disable', { password: PASSWORD })).status).toBe(200);
    expect((await login(o.email)).statusCode).toBe(200);
  });

  it('an owner or admin resets a member\'s; a member cannot; nobody resets themselves, the owner\'s or another account\'s', async () => {
    at(0);
    const o = await owner();
    const invited = await sessionCall(t.app, o.session, 'POST', '/team', { email: `member-${randomUUID()}@cafe.test`, can_billing: false });
    const member = { email: (invited.body.user as { email: string }).email, accountId: o.accountId, apiKey: o.apiKey, session: await acceptInvite(t.app, invited.body.invite_link as string) };
    const teamFlag = async () => ((await call(t.app, o.apiKey, 'GET', '/team')).body.users as Array<{ id: string; two_factor: boolean }>)
      .find((u) => u.id === member.session.userId)!.two_factor;
    expect(await teamFlag()).toBe(false);
    await enrolled(member);
    await enrolled(o);
    expect(await teamFlag()).toBe(true);
    expect((await sessionCall(t.app, member.session, 'DELETE', `/team/${o.session.userId}/two-factor`)).body.code).toBe('permission_denied');
    expect((await sessionCall(t.app, o.session, 'DELETE', `/team/${o.session.userId}/two-factor`)).body.code).toBe('forbidden');
    const made = await sessionCall(t.app, o.session, 'POST', '/team', { email: `admin-${randomUUID()}@cafe.test`, role: 'admin' });
    const adminSession = await acceptInvite(t.app, made.body.invite_link as string);
    expect((await sessionCall(t.app, adminSession, 'DELETE', `/team/${o.session.userId}/two-factor`)).body.code).toBe('permission_denied');
    const stranger = await owner();
    expect((await sessionCall(t.app, o.session, 'DELETE', `/team/${stranger.session.userId}/two-factor`)).status).toBe(404);
    expect((await login(member.email)).statusCode).toBe(202);
    expect((await sessionCall(t.app, o.session, 'DELETE', `/team/${member.session.userId}/two-factor`)).status).toBe(200);
    expect((await login(member.email)).statusCode).toBe(200);
    expect(await teamFlag()).toBe(false);
    // A key with the manage scope can reset the owner's (the way back for an owner who lost their device).
    expect((await call(t.app, o.apiKey, 'DELETE', `/team/${o.session.userId}/two-factor`)).status).toBe(200);
    expect((await login(o.email)).statusCode).toBe(200);
  });
});

describe('a password reset', () => {
  it('leaves two-factor on: the new password alone only opens the code step', async () => {
    at(0);
    const o = await owner();
    const { secret } = await enrolled(o);
    expect((await t.app.inject({ method: 'POST', url: '/password/forgot', payload: { email: o.email } })).statusCode).toBe(202);
    const outbox = await admin(t.app, 'GET', `/admin/outbox?to=${encodeURIComponent(o.email)}`);
    const mail = (outbox.body.mail as Array<{ kind: string; body: string }>).find((m) => m.kind === 'password_reset')!;
    const token = /\/app\/reset#([\w-]{43})/.exec(mail.body)![1]!;
    const reset = await t.app.inject({ method: 'POST', url: '/password/reset', payload: { token, password: 'a brand new pass phrase' } });
    expect(reset.statusCode).toBe(200);
    expect((await sessionCall(t.app, o.session, 'GET', '/two-factor')).status).toBe(401); // the reset ended the session
    const res = await login(o.email, 'a brand new pass phrase');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ second_factor_required: true });
    at(30);
    expect((await second(res.json().challenge as string, await codeAt(secret, 30))).statusCode).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('lists the second factor\'s routes, the 202 challenge of POST /session and the code step\'s errors', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths['/session']!.post!.responses)).toEqual(expect.arrayContaining(['200', '202', '401', '429']));
    expect(Object.keys(doc.paths['/session/two-factor']!.post!.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429']));
    for (const [path, method] of [['/two-factor', 'get'], ['/two-factor/enrol', 'post'], ['/two-factor/confirm', 'post'], ['/two-factor/disable', 'post'], ['/team/{memberId}/two-factor', 'delete']] as const) {
      expect(Object.keys(doc.paths[path]?.[method]?.responses ?? {}), `${method} ${path}`).toEqual(expect.arrayContaining(['200', '401', '403']));
    }
  });
});
