// A scripted day of an account, through the dashboard (a session) and an API key, then its audit log: every
// change appears with who, what, and before/after; a refused action appears as refused; no secret appears
// anywhere in the table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, mobile } from '../support/factories.ts';
import { acceptInvite, inviteToken, PASSWORD, sessionCall, type TestSession } from '../support/sessions.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }); });
afterAll(async () => { await t.close(); });

type Entry = {
  action: string; outcome: string; reason: string | null; source_address: string | null; account_id: string | null;
  actor: { type: string; id: string | null; label: string | null }; target: { type: string; id: string | null } | null;
  before: Record<string, unknown> | null; after: Record<string, unknown> | null;
};

async function signIn(email: string, password: string) {
  const res = await t.app.inject({ method: 'POST', url: '/session', payload: { email, password } });
  return { status: res.statusCode, cookie: res.cookies.find((c) => c.name === 'tasman_session')?.value, body: res.json() as Record<string, unknown> };
}

describe('audit log: a day of an account', () => {
  it('shows every change with its actor, target and before/after, a refusal as refused, and never a secret', async () => {
    const email = `owner-${randomUUID()}@example.com`;
    const created = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Day Co', email, credits: 100, hierarchy_enabled: true });
    const accountId = created.body.account_id as string;
    const ownerKey = created.body.api_key as string;
    const inviteLink = created.body.owner_invite_url as string;
    const first: TestSession = await acceptInvite(t.app, inviteLink);

    // Morning: a wrong password, then the right one.
    expect((await signIn(email, 'not-the-password-at-all')).status).toBe(401);
    const signedIn = await signIn(email, PASSWORD);
    expect(signedIn.status).toBe(200);
    const owner: TestSession = { cookie: signedIn.cookie!, csrf: signedIn.body.csrf_token as string, userId: first.userId };

    const key = await sessionCall(t.app, owner, 'POST', '/keys', { name: 'deploy', scopes: ['read', 'send'] });
    expect(key.status).toBe(201);
    const hook = await sessionCall(t.app, owner, 'PUT', '/webhooks/delivery', { url: 'https://hooks:pa55word@127.0.0.1/tasman' });
    expect(hook.status).toBe(200);
    const rotated = await sessionCall(t.app, owner, 'POST', '/webhooks/delivery');
    expect(rotated.status).toBe(200);
    const invited = await sessionCall(t.app, owner, 'POST', '/team', { email: `m-${randomUUID()}@example.com`, can_send: true });
    expect(invited.status).toBe(201);
    const memberId = (invited.body.user as { id: string }).id;
    expect((await sessionCall(t.app, owner, 'DELETE', `/team/${memberId}`)).status).toBe(200);
    const sub = await sessionCall(t.app, owner, 'POST', '/accounts', { business_name: 'Branch' });
    expect(sub.status).toBe(201);
    const subId = sub.body.id as string;
    expect((await sessionCall(t.app, owner, 'POST', `/account/${subId}/credits/allocate`, { amount: 10 })).status).toBe(200);
    const pool = mobile();
    expect((await admin(t.app, 'POST', '/admin/numbers', { number: pool, country: 'AU', price_monthly: 0.12 })).status).toBe(201);
    expect((await call(t.app, ownerKey, 'POST', '/numbers/purchase', { number: pool })).status).toBe(200);
    const stop = mobile();
    expect((await sessionCall(t.app, owner, 'POST', '/optouts', { number: stop })).status).toBe(201);
    expect((await sessionCall(t.app, owner, 'DELETE', `/optouts/${encodeURIComponent(stop)}`)).status).toBe(200);
    expect((await sessionCall(t.app, owner, 'PUT', '/settings', { time_zone: 'Australia/Perth' })).status).toBe(200);
    // A key that may only read tries to issue itself a key.
    const refused = await call(t.app, key.body.key as string, 'POST', '/keys', { name: 'escalate' });
    expect(refused.status).toBe(403);

    const res = await sessionCall(t.app, owner, 'GET', '/audit?limit=500');
    expect(res.status).toBe(200);
    const entries = (res.body.entries as Entry[]).reverse();
    const by = (action: string) => {
      const found = entries.filter((e) => e.action === action);
      expect(found, action).toHaveLength(1);
      return found[0]!;
    };
    const ownerActor = { type: 'user', id: owner.userId, label: email };

    expect(by('account.created')).toMatchObject({ actor: { type: 'operator' }, target: { type: 'account', id: accountId }, after: { credits: 100 } });
    expect(entries.filter((e) => e.action === 'session.signed_in').map((e) => e.after)).toEqual([{ how: 'invite' }, { how: 'password' }]);
    expect(by('session.sign_in_failed')).toMatchObject({ outcome: 'refused', reason: 'invalid_credentials', actor: ownerActor, source_address: '127.0.0.1' });
    expect(by('key.created')).toMatchObject({
      actor: ownerActor, source_address: '127.0.0.1', target: { type: 'api_key', id: key.body.id }, before: null,
      after: { name: 'deploy', scopes: ['read', 'send'], prefix: (key.body.key as string).slice(0, 12) },
    });
    expect(by('webhook.created')).toMatchObject({
      actor: ownerActor, target: { type: 'webhook', id: 'delivery_receipt' }, before: null,
      after: { url: expect.not.stringContaining('pa55word'), signing_secret_created: true },
    });
    expect(by('webhook.secret_rotated')).toMatchObject({ actor: ownerActor, after: { secret_rotated: true } });
    expect(by('team.member_invited')).toMatchObject({ actor: ownerActor, target: { type: 'user', id: memberId }, after: { can_send: true, can_billing: false } });
    expect(by('team.member_removed')).toMatchObject({ actor: ownerActor, target: { type: 'user', id: memberId }, before: { role: 'member', can_send: true }, after: null });
    expect(by('sub_account.created')).toMatchObject({ actor: ownerActor, target: { type: 'account', id: subId }, after: { business_name: 'Branch' } });
    expect(by('credits.allocated')).toMatchObject({
      actor: ownerActor, target: { type: 'account', id: subId }, before: { credits: 0 }, after: { credits: 10, amount: 10 },
    });
    expect(by('number.bought')).toMatchObject({ actor: { type: 'key', label: ownerKey.slice(0, 12) }, target: { type: 'number', id: pool }, after: { credits_charged: 4 } });
    expect(by('optout.added')).toMatchObject({ actor: ownerActor, target: { type: 'optout', id: stop } });
    expect(by('optout.removed')).toMatchObject({ actor: ownerActor, target: { type: 'optout', id: stop }, before: { number: stop } });
    expect(by('settings.updated')).toMatchObject({
      actor: ownerActor, before: { time_zone: 'Australia/Sydney' }, after: { time_zone: 'Australia/Perth' },
    });
    expect(by('access.refused')).toMatchObject({
      outcome: 'refused', reason: 'insufficient_scope', actor: { type: 'key', id: key.body.id }, target: { type: 'route', id: 'POST /keys' },
    });
    expect(entries.every((e) => e.account_id === accountId)).toBe(true);

    // No secret anywhere in the table: the keys, the signing secrets, the URL's password, the invite token, the password.
    const secrets = [ownerKey, key.body.key, hook.body.delivery_receipt && (hook.body.delivery_receipt as { secret?: string }).secret, rotated.body.secret,
      'pa55word', inviteToken(inviteLink), PASSWORD, owner.cookie, owner.csrf].filter((s): s is string => typeof s === 'string' && s.length > 0);
    expect(secrets.length).toBe(9);
    for (const secret of secrets) {
      const [found] = await rows<{ n: number }>(t.services.db, sql`
        select count(*)::int as n from audit_log a where row_to_json(a)::text like ${`%${secret}%`}`);
      expect(found?.n, 'a secret in the audit log').toBe(0);
    }
  });
});
