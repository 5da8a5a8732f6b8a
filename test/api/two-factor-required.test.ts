// The owner requires a second factor of the whole team: only the owner sets it, and only with their own on; a
// signed-in user without one may then only enrol (and sign out), on their very next request; API keys go on as
// before; turning it off opens everything again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call } from '../support/factories.ts';
import { acceptInvite, sessionCall, type TestSession } from '../support/sessions.ts';

// The app's clock, moved by the tests so each code falls in a step later than the last one spent.
const START = new Date('2026-11-22T10:00:10Z');
let clock = START;
const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(clock.getTime() / 1000) });
const nextStep = () => { clock = new Date(clock.getTime() + 30_000); };

let t: TestApp;
beforeAll(async () => { t = await createTestApp({}, { now: () => clock }); });
afterAll(async () => { await t.close(); });

async function team() {
  const res = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Harbour Cafe', email: `owner-${randomUUID()}@cafe.test` });
  const owner = await acceptInvite(t.app, res.body.owner_invite_url as string);
  const invite = async (role: 'admin' | 'member') => {
    const made = await sessionCall(t.app, owner, 'POST', '/team', { email: `${role}-${randomUUID()}@cafe.test`, role });
    return acceptInvite(t.app, made.body.invite_link as string);
  };
  return { owner, apiKey: res.body.api_key as string, admin: await invite('admin'), member: await invite('member') };
}

async function enrol(s: TestSession) {
  const { secret } = (await sessionCall(t.app, s, 'POST', '/two-factor/enrol', {})).body as { secret: string };
  nextStep();
  expect((await sessionCall(t.app, s, 'POST', '/two-factor/confirm', { code: await codeNow(secret) })).status).toBe(200);
}

const requireIt = (s: TestSession, required: boolean) => sessionCall(t.app, s, 'PUT', '/settings/two-factor', { required });

describe('requiring two-factor authentication of the team', () => {
  it('only the owner sets it, and only once their own is on', async () => {
    const { owner, admin: adminUser, member, apiKey } = await team();
    expect((await requireIt(adminUser, true)).body.code).toBe('permission_denied');
    expect((await requireIt(member, true)).body.code).toBe('permission_denied');
    expect((await call(t.app, apiKey, 'PUT', '/settings/two-factor', { required: true })).body.code).toBe('insufficient_scope');
    const early = await requireIt(owner, true);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/your own two-factor authentication first/);
    await enrol(owner);
    expect((await requireIt(owner, true)).body).toEqual({ required: true });
    expect((await call(t.app, apiKey, 'GET', '/settings/two-factor')).body).toEqual({ required: true });
    const audit = await call(t.app, apiKey, 'GET', '/audit?action=settings.two_factor_required');
    expect((audit.body.entries as Array<{ after: unknown }>).map((e) => e.after)).toEqual([{ two_factor_required: true }]);
  });

  it('a user without a second factor may then only enrol: everything else answers 403 two_factor_required; keys are not affected', async () => {
    const { owner, member, apiKey } = await team();
    await enrol(owner);
    expect((await sessionCall(t.app, member, 'GET', '/balance')).status).toBe(200);
    await requireIt(owner, true);

    const refused = await sessionCall(t.app, member, 'GET', '/balance');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('two_factor_required');
    expect((await sessionCall(t.app, member, 'POST', '/send', { to: '0412345678', message: 'hi' })).body.code).toBe('two_factor_required');
    // What the dashboard needs to send them to the Security page, and the Security page's own routes.
    const session = await sessionCall(t.app, member, 'GET', '/session');
    expect(session.body).toMatchObject({ user: { two_factor: false }, account: { two_factor_required: true } });
    expect((await sessionCall(t.app, member, 'GET', '/two-factor')).status).toBe(200);
    expect((await call(t.app, apiKey, 'GET', '/balance')).status).toBe(200);
    expect((await sessionCall(t.app, owner, 'GET', '/balance')).status).toBe(200);

    await enrol(member);
    expect((await sessionCall(t.app, member, 'GET', '/balance')).status).toBe(200);
    expect((await sessionCall(t.app, member, 'GET', '/session')).body).toMatchObject({ user: { two_factor: true } });
  });

  it('a member whose factor is reset is back to enrolling; turning the requirement off opens everything again', async () => {
    const { owner, member } = await team();
    await enrol(owner);
    await enrol(member);
    await requireIt(owner, true);
    expect((await sessionCall(t.app, member, 'GET', '/balance')).status).toBe(200);
    expect((await sessionCall(t.app, owner, 'DELETE', `/team/${member.userId}/two-factor`)).status).toBe(200);
    expect((await sessionCall(t.app, member, 'GET', '/balance')).body.code).toBe('two_factor_required');
    expect((await requireIt(owner, false)).body).toEqual({ required: false });
    expect((await sessionCall(t.app, member, 'GET', '/balance')).status).toBe(200);
    expect((await sessionCall(t.app, member, 'GET', '/session')).body).toMatchObject({ account: { two_factor_required: false } });
  });
});
