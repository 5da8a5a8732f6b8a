import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile, type TestAccount } from '../support/factories.ts';
import { rows } from '../../src/platform/db/client.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const MISSING = '01a1fc97-f1e8-765e-92c4-fdeb302ed871';

/** A parent with the hierarchy enabled and one sub-account with its own key. */
async function family(app: FastifyInstance, opts: { parentCredits?: number; seed?: number; body?: object } = {}) {
  const parent = await createAccount(app, { credits: opts.parentCredits ?? 100, hierarchy: true });
  const created = await call(app, parent.apiKey, 'POST', '/accounts', { business_name: 'Child Co', seed_credits: opts.seed ?? 10, ...opts.body });
  if (created.status !== 201) throw new Error(`sub-account create failed: ${JSON.stringify(created.body)}`);
  const childId = created.body.id as string;
  const key = await call(app, parent.apiKey, 'POST', `/account/${childId}/key`, { name: 'Child key' });
  const child: TestAccount = { accountId: childId, apiKey: key.body.key as string, keyId: key.body.id as string };
  return { parent, child };
}

async function ledger(accountId: string) {
  return rows<{ kind: string; delta: number; balance_after: number; counterparty_id: string | null }>(t.services.db, sql`
    select kind, delta, balance_after, counterparty_id from credit_ledger where account_id = ${accountId} order by created_at, id`);
}


describe('POST /accounts', () => {
  it('creates a sub-account funded from the parent, with ledger rows on both sides and no free grant', async () => {
    const parent = await createAccount(t.app, { credits: 50, hierarchy: true, abn: '51824753556' });
    const res = await call(t.app, parent.apiKey, 'POST', '/accounts', {
      business_name: 'Acme Dental', email: 'owner@acme.test', seed_credits: 20, daily_limit: 100, optout_exempt: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ account_id: expect.any(String), id: res.body.account_id, email: 'owner@acme.test' });
    // Beside the ids, the account as GET /account/{id} answers it (client libraries read created.account.id).
    expect(res.body.account).toEqual((await call(t.app, parent.apiKey, 'GET', `/account/${res.body.id as string}`)).body.account);
    // The email is the sub-account's owner, invited by email: its one user.
    const id = res.body.id as string;
    expect((await call(t.app, parent.apiKey, 'GET', '/balance')).body.credits).toBe(30);

    const got = await call(t.app, parent.apiKey, 'GET', `/account/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      account: {
        id, business_name: 'Acme Dental', credits: 20, account_status: 'active', daily_send_limit: 100,
        managed_by_parent: true, team_access_from_parent: false, user_count: 1, number_count: 0,
        email: 'owner@acme.test', parent_account_id: parent.accountId, created_at: expect.stringMatching(/Z$/),
        hierarchy_enabled: false, optout_exempt: true, inherit_parent_senders: false, abn: '51824753556',
        sending_number: null, default_sender_id_value: null,
        // The settings a new sub-account starts with (GET/PUT /settings).
        time_zone: 'Australia/Sydney', quiet_hours: null, link_tracking: false, country: 'AU', low_balance_threshold: null,
      },
    });
    expect(await ledger(id)).toEqual([{ kind: 'allocate', delta: 20, balance_after: 20, counterparty_id: parent.accountId }]);
    expect((await ledger(parent.accountId)).at(-1)).toEqual({ kind: 'allocate', delta: -20, balance_after: 30, counterparty_id: id });
  });

  it('without seed_credits the sub-account starts at zero; the body may give its own ABN', async () => {
    const parent = await createAccount(t.app, { hierarchy: true, abn: '51824753556' });
    const res = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Own ABN', abn: '53 004 085 616' });
    expect(res.status).toBe(201);
    expect(res.body.email).toBeNull();
    const got = await call(t.app, parent.apiKey, 'GET', `/account/${res.body.id}`);
    expect(got.body.account).toMatchObject({ credits: 0, abn: '53004085616', daily_send_limit: null });
  });

  it('402 when the parent lacks the seed credits, and nothing is created', async () => {
    const parent = await createAccount(t.app, { credits: 5, hierarchy: true });
    const res = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Too rich', seed_credits: 6 });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'insufficient_credits', credits_required: 6, credits_available: 5 });
    // Only the caller itself (listed first, as the client libraries expect): nothing was created.
    expect((await call(t.app, parent.apiKey, 'GET', '/accounts')).body.accounts).toEqual([expect.objectContaining({ id: parent.accountId })]);
    expect((await call(t.app, parent.apiKey, 'GET', '/balance')).body.credits).toBe(5);
  });

  it('requires email when managed_by_parent is false', async () => {
    const parent = await createAccount(t.app, { hierarchy: true });
    const res = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Self run', managed_by_parent: false });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    const ok = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Self run', managed_by_parent: false, email: 'me@self.test' });
    expect(ok.status).toBe(201);
  });

  it('409 when an open account of the group already uses the email (any case)', async () => {
    const parent = await createAccount(t.app, { hierarchy: true });
    expect((await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'A', email: 'dup@x.test' })).status).toBe(201);
    const dup = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'B', email: 'DUP@x.test' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('email_taken');
    // Another group may use it: emails are unique per group, and a 409 there would reveal other tenants' customers.
    const other = await createAccount(t.app, { hierarchy: true });
    expect((await call(t.app, other.apiKey, 'POST', '/accounts', { business_name: 'C', email: 'dup@x.test' })).status).toBe(201);
  });

  it('400 for a missing business_name or a wrongly typed field', async () => {
    const parent = await createAccount(t.app, { hierarchy: true });
    for (const body of [{}, { business_name: 'x', seed_credits: '5' }, { business_name: 'x', seed_credits: -1 }, { business_name: 'x', email: 'not-an-email' }]) {
      const res = await call(t.app, parent.apiKey, 'POST', '/accounts', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('403 hierarchy_not_enabled without the flag; 403 not_a_parent for a sub-account, even with the flag', async () => {
    const plain = await createAccount(t.app);
    const res = await call(t.app, plain.apiKey, 'POST', '/accounts', { business_name: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('hierarchy_not_enabled');
    const { child } = await family(t.app);
    expect((await call(t.app, child.apiKey, 'POST', '/accounts', { business_name: 'x' })).body.code).toBe('hierarchy_not_enabled');
    await admin(t.app, 'PATCH', `/admin/accounts/${child.accountId}`, { hierarchy_enabled: true });
    const nested = await call(t.app, child.apiKey, 'POST', '/accounts', { business_name: 'x' });
    expect(nested.status).toBe(403);
    expect(nested.body.code).toBe('not_a_parent');
  });
});

describe('GET /accounts', () => {
  it('lists the caller itself first (parent_account_id null), then only its open sub-accounts', async () => {
    const { parent, child } = await family(t.app);
    const second = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Second' });
    await family(t.app); // a stranger's family
    const list = await call(t.app, parent.apiKey, 'GET', '/accounts');
    expect(list.status).toBe(200);
    expect(list.body.accounts).toEqual([
      { id: parent.accountId, business_name: expect.any(String), parent_account_id: null, created_at: expect.any(String), account_status: 'active', credits: expect.any(Number) },
      { id: child.accountId, business_name: 'Child Co', parent_account_id: parent.accountId, created_at: expect.any(String), account_status: 'active', credits: 10 },
      { id: second.body.id, business_name: 'Second', parent_account_id: parent.accountId, created_at: expect.any(String), account_status: 'active', credits: 0 },
    ]);
    await call(t.app, parent.apiKey, 'DELETE', `/account/${second.body.id}`);
    expect((await call(t.app, parent.apiKey, 'GET', '/accounts')).body.accounts).toHaveLength(2);
  });
});

describe('PATCH /account/{id}', () => {
  it('changes settings and answers {ok, account}', async () => {
    const { parent, child } = await family(t.app);
    const res = await call(t.app, parent.apiKey, 'PATCH', `/account/${child.accountId}`, {
      business_name: 'Renamed', daily_limit: 7, team_access_from_parent: true, inherit_parent_senders: true, optout_exempt: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.account).toMatchObject({
      id: child.accountId, business_name: 'Renamed', daily_send_limit: 7, team_access_from_parent: true,
      inherit_parent_senders: true, optout_exempt: true,
    });
    const cleared = await call(t.app, parent.apiKey, 'PATCH', `/account/${child.accountId}`, { daily_limit: null });
    expect((cleared.body.account as { daily_send_limit: unknown }).daily_send_limit).toBeNull();
  });

  it('a sub-account cannot change itself (inherit_parent_senders included)', async () => {
    const { child } = await family(t.app);
    const res = await call(t.app, child.apiKey, 'PATCH', `/account/${child.accountId}`, { inherit_parent_senders: true });
    expect(res.status).toBe(403);
    await admin(t.app, 'PATCH', `/admin/accounts/${child.accountId}`, { hierarchy_enabled: true });
    const again = await call(t.app, child.apiKey, 'PATCH', `/account/${child.accountId}`, { inherit_parent_senders: true });
    expect(again.status).toBe(404);
  });

  it('409 for an email another account of the group uses; its own email is fine', async () => {
    const { parent, child } = await family(t.app, { body: { email: 'first@x.test' } });
    await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Other', email: 'taken@x.test' });
    expect((await call(t.app, parent.apiKey, 'PATCH', `/account/${child.accountId}`, { email: 'taken@x.test' })).status).toBe(409);
    expect((await call(t.app, parent.apiKey, 'PATCH', `/account/${child.accountId}`, { email: 'FIRST@x.test' })).status).toBe(200);
  });

  it('403 not_managed_by_parent for a self-managed sub-account, which the parent may still read and fund', async () => {
    const parent = await createAccount(t.app, { credits: 100, hierarchy: true });
    const made = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Self', managed_by_parent: false, email: 'self@x.test', seed_credits: 10 });
    const child = { accountId: made.body.id as string };
    const res = await call(t.app, parent.apiKey, 'PATCH', `/account/${child.accountId}`, { daily_limit: 1 });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('not_managed_by_parent');
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${child.accountId}`)).status).toBe(200);
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${child.accountId}/balance`)).body).toEqual({ credits: 10 });
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${child.accountId}/credits/allocate`, { amount: 1 })).status).toBe(200);
    for (const [method, url, payload] of [
      ['POST', `/account/${child.accountId}/credits/recall`, { amount: 1 }],
      ['POST', `/account/${child.accountId}/key`, { name: 'x' }],
      ['DELETE', `/account/${child.accountId}/key/${MISSING}`, undefined],
      ['DELETE', `/account/${child.accountId}`, undefined],
    ] as const) {
      const r = await call(t.app, parent.apiKey, method, url, payload);
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body.code).toBe('not_managed_by_parent');
    }
  });
});

describe('credits', () => {
  it('allocate and recall move credits atomically with a ledger row on each side', async () => {
    const { parent, child } = await family(t.app, { parentCredits: 100, seed: 0 });
    const a = await call(t.app, parent.apiKey, 'POST', `/account/${child.accountId}/credits/allocate`, { amount: 30 });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ ok: true, direction: 'allocate', amount: 30, credits: 30, parent_credits: 70 });
    const r = await call(t.app, parent.apiKey, 'POST', `/account/${child.accountId}/credits/recall`, { amount: 12 });
    expect(r.body).toEqual({ ok: true, direction: 'recall', amount: 12, credits: 18, parent_credits: 82 });
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${child.accountId}/balance`)).body).toEqual({ credits: 18 });
    expect((await call(t.app, child.apiKey, 'GET', '/balance')).body).toEqual({ credits: 18 });
    expect(await ledger(child.accountId)).toEqual([
      { kind: 'allocate', delta: 30, balance_after: 30, counterparty_id: parent.accountId },
      { kind: 'recall', delta: -12, balance_after: 18, counterparty_id: parent.accountId },
    ]);
    expect((await ledger(parent.accountId)).slice(-2)).toEqual([
      { kind: 'allocate', delta: -30, balance_after: 70, counterparty_id: child.accountId },
      { kind: 'recall', delta: 12, balance_after: 82, counterparty_id: child.accountId },
    ]);
  });

  it('402 when either side is short, and nothing moves', async () => {
    const { parent, child } = await family(t.app, { parentCredits: 20, seed: 5 });
    const a = await call(t.app, parent.apiKey, 'POST', `/account/${child.accountId}/credits/allocate`, { amount: 16 });
    expect(a.status).toBe(402);
    expect(a.body).toMatchObject({ code: 'insufficient_credits', credits_required: 16, credits_available: 15 });
    const r = await call(t.app, parent.apiKey, 'POST', `/account/${child.accountId}/credits/recall`, { amount: 6 });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ credits_required: 6, credits_available: 5 });
    expect((await call(t.app, parent.apiKey, 'GET', '/balance')).body.credits).toBe(15);
    expect((await call(t.app, child.apiKey, 'GET', '/balance')).body.credits).toBe(5);
    expect(await ledger(child.accountId)).toHaveLength(1);
  });

  it.each([0, -1, 1.5, '3'])('400 for amount %j', async (amount) => {
    const { parent, child } = await family(t.app);
    const res = await call(t.app, parent.apiKey, 'POST', `/account/${child.accountId}/credits/allocate`, { amount });
    expect(res.status).toBe(400);
  });
});

describe('sub-account keys', () => {
  it('a new key works at once for that sub-account only; listing never shows the key or its hash', async () => {
    const { parent, child } = await family(t.app);
    const created = await call(t.app, parent.apiKey, 'POST', `/account/${child.accountId}/key`, { name: 'Second' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), key: expect.stringMatching(/^tsm_/), prefix: expect.any(String), name: 'Second', scopes: ['read', 'send', 'billing', 'manage'], created_at: expect.any(String) });
    expect((created.body.key as string).startsWith(created.body.prefix as string)).toBe(true);
    expect((await call(t.app, created.body.key as string, 'GET', '/balance')).body).toEqual({ credits: 10 });

    const list = await call(t.app, parent.apiKey, 'GET', `/account/${child.accountId}/keys`);
    expect(list.status).toBe(200);
    const keys = list.body.keys as Array<Record<string, unknown>>;
    expect(keys.map((k) => k.id).sort()).toEqual([child.keyId, created.body.id].sort());
    for (const k of keys) {
      expect(Object.keys(k).sort()).toEqual(['created_at', 'created_by_user', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scopes']);
      expect(k.revoked_at).toBeNull();
    }
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
  });

  it('a bodyless POST creates a key with a default name', async () => {
    const { parent, child } = await family(t.app);
    const res = await t.app.inject({ method: 'POST', url: `/account/${child.accountId}/key`, headers: { authorization: `Bearer ${parent.apiKey}` } });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('API key');
  });

  it('a revoked key answers 401 on its next request; revoking again is ok; another account\'s key id is 404', async () => {
    const { parent, child } = await family(t.app);
    expect((await call(t.app, child.apiKey, 'GET', '/balance')).status).toBe(200);
    const res = await call(t.app, parent.apiKey, 'DELETE', `/account/${child.accountId}/key/${child.keyId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await call(t.app, child.apiKey, 'GET', '/balance')).status).toBe(401);
    expect((await call(t.app, parent.apiKey, 'DELETE', `/account/${child.accountId}/key/${child.keyId}`)).status).toBe(200);
    const list = await call(t.app, parent.apiKey, 'GET', `/account/${child.accountId}/keys`);
    expect((list.body.keys as Array<{ revoked_at: unknown }>)[0]!.revoked_at).toEqual(expect.stringMatching(/Z$/));
    // The parent's own key, through the sub-account's path: 404, the parent's key keeps working.
    expect((await call(t.app, parent.apiKey, 'DELETE', `/account/${child.accountId}/key/${parent.keyId}`)).status).toBe(404);
    expect((await call(t.app, parent.apiKey, 'DELETE', `/account/${child.accountId}/key/${MISSING}`)).status).toBe(404);
    expect((await call(t.app, parent.apiKey, 'GET', '/balance')).status).toBe(200);
  });
});

describe('DELETE /account/{id}', () => {
  it('closes: keys stop at once, credits and numbers go back to the parent, history stays', async () => {
    const { parent, child } = await family(t.app, { parentCredits: 100, seed: 10 });
    const number = mobile();
    await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: parent.accountId });
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${child.accountId}/numbers/assign`, { numbers: number })).status).toBe(200);
    const sent = await call(t.app, child.apiKey, 'POST', '/send', { to: mobile(), message: 'before closing' });
    expect(sent.status).toBe(200);

    const res = await call(t.app, parent.apiKey, 'DELETE', `/account/${child.accountId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, credits_returned: 9, scheduled_for_deletion: false });
    expect((await call(t.app, child.apiKey, 'GET', '/balance')).status).toBe(401);
    expect((await call(t.app, parent.apiKey, 'GET', '/balance')).body.credits).toBe(99);
    expect(((await call(t.app, parent.apiKey, 'GET', '/numbers')).body.numbers as Array<{ number: string }>).map((n) => n.number)).toEqual([number]);
    expect((await ledger(child.accountId)).at(-1)).toEqual({ kind: 'close', delta: -9, balance_after: 0, counterparty_id: parent.accountId });
    expect((await ledger(parent.accountId)).at(-1)).toEqual({ kind: 'close', delta: 9, balance_after: 99, counterparty_id: child.accountId });
    const [kept] = await rows<{ n: number }>(t.services.db, sql`select count(*)::int as n from messages where account_id = ${child.accountId}`);
    expect(kept!.n).toBe(1);
    // Gone for the API: every route answers 404, like a missing id.
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${child.accountId}`)).status).toBe(404);
    expect((await call(t.app, parent.apiKey, 'DELETE', `/account/${child.accountId}`)).status).toBe(404);
  });
});
