// Named operators' console sign-in: the setup link (password and authenticator), then name, password and code;
// the console session authorises the /admin routes like the operator token, named in the audit log. Codes come
// from otplib with the secret the setup page shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, createAccount } from '../support/factories.ts';
import { rows } from '../../src/platform/db/client.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const PASSWORD = 'harbour lights at dusk';
/** The code (otplib answers a promise) of the step `steps` after now's (the service accepts one step either side). */
const code = async (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function post(url: string, payload: object, cookies: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'POST', url, payload, cookies });
  const cookie = res.cookies.find((c) => c.name === 'tasman_operator')?.value;
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, cookie };
}

/** A new operator and their setup: the token from the link and the authenticator secret. */
async function newOperator() {
  const name = `Priya ${randomUUID().slice(0, 8)}`;
  const added = await admin(t.app, 'POST', '/admin/operators', { name });
  const token = (added.body.setup_url as string).split('#')[1]!;
  const setup = await post('/session/operator/setup/describe', { token });
  expect(setup).toMatchObject({ status: 200, body: { name, secret: expect.any(String), otpauth_uri: expect.stringMatching(/^otpauth:\/\/totp\//) } });
  return { id: added.body.id as string, name, token, secret: setup.body.secret as string };
}

describe('operator console sign-in', () => {
  it('sets up with a password and a code, signs in with name, password and code, and acts in the audit log under the name', async () => {
    const op = await newOperator();
    // Reading the link again shows the same secret until the setup completes.
    expect((await post('/session/operator/setup/describe', { token: op.token })).body.secret).toBe(op.secret);
    // Not signed in yet: no password, no second factor.
    expect((await post('/session/operator/sign-in', { name: op.name, password: PASSWORD, code: await code(op.secret) })).status).toBe(401);

    expect((await post('/session/operator/setup', { token: op.token, password: 'short', code: await code(op.secret) })).body.code).toBe('weak_password');
    expect((await post('/session/operator/setup', { token: op.token, password: PASSWORD, code: '000000' })).body.code).toBe('invalid_code');
    const done = await post('/session/operator/setup', { token: op.token, password: PASSWORD, code: await code(op.secret) });
    expect(done).toMatchObject({ status: 200, body: { csrf_token: expect.any(String), operator: { id: op.id, name: op.name } }, cookie: expect.any(String) });
    // The link is spent.
    expect((await post('/session/operator/setup/describe', { token: op.token })).body.code).toBe('invite_invalid');

    // The session opens the /admin routes, names the operator, and its writes need the CSRF token.
    const cookies = { tasman_operator: done.cookie! };
    const session = await t.app.inject({ method: 'GET', url: '/session/operator', cookies });
    expect(session.json()).toEqual({ csrf_token: done.body.csrf_token, operator: { id: op.id, name: op.name } });
    const a = await createAccount(t.app);
    const credit = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: `/admin/accounts/${a.accountId}/credits`, cookies, headers, payload: { amount: 3 } });
    expect((await credit({})).statusCode).toBe(403);
    expect((await credit({ 'x-csrf-token': done.body.csrf_token as string })).json()).toMatchObject({ credits: 8 });
    const entries = await rows<{ action: string; actor_id: string; actor_label: string }>(t.services.db, sql`
      select action, actor_id::text, actor_label from audit_log where account_id = ${a.accountId} and action = 'credits.granted'`);
    expect(entries).toEqual([{ action: 'credits.granted', actor_id: op.id, actor_label: op.name }]);

    // Sign out, and in again: name (any case), password and a code of a later step; a replayed code is refused.
    await t.app.inject({ method: 'DELETE', url: '/session/operator', cookies });
    expect((await t.app.inject({ method: 'GET', url: '/admin/health', cookies })).statusCode).toBe(401);
    const replay = await post('/session/operator/sign-in', { name: op.name, password: PASSWORD, code: await code(op.secret) });
    expect(replay.body.code).toBe('invalid_credentials');
    expect((await post('/session/operator/sign-in', { name: op.name, password: 'wrong password here', code: await code(op.secret, 1) })).body)
      .toMatchObject({ code: 'invalid_credentials', error: 'Wrong name, password or code' });
    const again = await post('/session/operator/sign-in', { name: op.name.toUpperCase(), password: PASSWORD, code: await code(op.secret, 1) });
    expect(again).toMatchObject({ status: 200, body: { operator: { id: op.id, name: op.name } }, cookie: expect.any(String) });
    expect((await t.app.inject({ method: 'GET', url: '/admin/operators', cookies: { tasman_operator: again.cookie! } })).statusCode).toBe(200);

    const signIns = await rows<{ action: string; actor_label: string }>(t.services.db, sql`
      select action, actor_label from audit_log where actor_id = ${op.id} and action like 'operator.%' order by created_at, id`);
    expect(signIns.map((e) => e.action)).toEqual(['operator.setup_completed', 'operator.signed_in', 'operator.sign_in_failed', 'operator.sign_in_failed', 'operator.signed_in']);
  });

  it('a new setup link or removal ends the operator\'s console sessions; the operator token\'s session is unchanged', async () => {
    const op = await newOperator();
    const done = await post('/session/operator/setup', { token: op.token, password: PASSWORD, code: await code(op.secret) });
    const cookies = { tasman_operator: done.cookie! };
    expect((await t.app.inject({ method: 'GET', url: '/admin/health', cookies })).statusCode).toBe(200);

    // Lost device: another operator issues a new link; the old session and password stop at once.
    const link = await admin(t.app, 'POST', `/admin/operators/${op.id}/setup-link`);
    expect(link.body.setup_url).toMatch(/\/operator\/setup#/);
    expect((await t.app.inject({ method: 'GET', url: '/admin/health', cookies })).statusCode).toBe(401);
    expect((await post('/session/operator/sign-in', { name: op.name, password: PASSWORD, code: await code(op.secret, 1) })).status).toBe(401);

    const token = (link.body.setup_url as string).split('#')[1]!;
    const secret = (await post('/session/operator/setup/describe', { token })).body.secret as string;
    expect(secret).not.toBe(op.secret);
    const redone = await post('/session/operator/setup', { token, password: PASSWORD, code: await code(secret) });
    const fresh = { tasman_operator: redone.cookie! };
    expect((await t.app.inject({ method: 'GET', url: '/admin/health', cookies: fresh })).statusCode).toBe(200);

    // Removed: the session ends with the operator.
    expect((await admin(t.app, 'DELETE', `/admin/operators/${op.id}`)).status).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/admin/health', cookies: fresh })).statusCode).toBe(401);
    expect((await admin(t.app, 'POST', `/admin/operators/${op.id}/setup-link`)).status).toBe(404);
  });
});
