import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });


async function family(app: FastifyInstance) {
  const parent = await createAccount(app, { credits: 100, hierarchy: true });
  const created = await call(app, parent.apiKey, 'POST', '/accounts', { business_name: 'Child Co', seed_credits: 5 });
  const childId = created.body.id as string;
  const key = await call(app, parent.apiKey, 'POST', `/account/${childId}/key`, { name: 'k' });
  return { parent, childId, childKey: key.body.key as string };
}

/** A pool number; NZ ones from a separate range so country filters can be checked. */
async function poolNumber(country: 'AU' | 'NZ' = 'AU', accountId?: string, price = 0.12): Promise<string> {
  const number = country === 'AU' ? mobile() : `+6421${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`.replace(/99[6-9]$/, '123');
  // 12 cents a month is 4 credits at 3 cents: a new account (5 credits) can rent one.
  const res = await admin(t.app, 'POST', '/admin/numbers', { number, country, price_monthly: price, ...(accountId ? { account_id: accountId } : {}) });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return number;
}

const numbersOf = (body: Record<string, unknown>) => (body.numbers as Array<{ number: string }>).map((n) => n.number).sort();


describe('GET /numbers/available and POST /numbers/purchase', () => {
  it('lists pool numbers with limit and offset, filters by country, and purchase leases one to the caller', async () => {
    const nz = await poolNumber('NZ');
    const page = await call(t.app, (await createAccount(t.app)).apiKey, 'GET', '/numbers/available?country=NZ&limit=100');
    expect(page.status).toBe(200);
    expect(page.body.limit).toBe(100);
    expect(page.body.offset).toBe(0);
    const items = page.body.numbers as Array<{ number: string; country: string; price_monthly: number }>;
    expect(items.every((n) => n.country === 'NZ')).toBe(true);
    expect(items.find((n) => n.number === nz)).toEqual({ id: expect.any(String), number: nz, country: 'NZ', price_monthly: 0.12 });

    const buyer = await createAccount(t.app);
    const bought = await call(t.app, buyer.apiKey, 'POST', '/numbers/purchase', { number: nz });
    expect(bought.status).toBe(200);
    // The shape the client libraries read: number as a string, number_id, label, status; `ok` kept.
    expect(bought.body).toEqual({
      ok: true, number: nz, number_id: expect.any(String), label: null, status: 'active', billing_reference: null,
      country: 'NZ', price_monthly: 0.12, credits_charged: 4, credits_remaining: 1, paid_until: expect.stringMatching(/Z$/),
    });
    expect(numbersOf((await call(t.app, buyer.apiKey, 'GET', '/numbers')).body)).toEqual([nz]);
    const after = await call(t.app, buyer.apiKey, 'GET', '/numbers/available?country=NZ&limit=100');
    expect(numbersOf(after.body)).not.toContain(nz);
    // Held now: a second buyer (or the same one) gets 409.
    const again = await call(t.app, (await createAccount(t.app)).apiKey, 'POST', '/numbers/purchase', { number: nz });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('number_unavailable');
  });

  it('defaults limit to 20 and pages with offset', async () => {
    for (let i = 0; i < 3; i++) await poolNumber('AU');
    const a = await createAccount(t.app);
    const first = await call(t.app, a.apiKey, 'GET', '/numbers/available?country=AU');
    expect(first.body.limit).toBe(20);
    const two = await call(t.app, a.apiKey, 'GET', '/numbers/available?country=AU&limit=2');
    const next = await call(t.app, a.apiKey, 'GET', '/numbers/available?country=AU&limit=2&offset=1');
    expect((two.body.numbers as unknown[])).toHaveLength(2);
    // Other test files lease and add pool numbers on the shared database meanwhile, so compare by order, not by
    // identity: the page at offset 1 starts after the first number of the page at offset 0.
    const firstOf = (b: Record<string, unknown>) => (b.numbers as Array<{ number: string }>)[0]!.number;
    expect(firstOf(next.body) > firstOf(two.body)).toBe(true);
  });

  it.each(['limit=0', 'limit=101', 'offset=-1', 'country=US', 'limit=abc'])('400 for %s', async (q) => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'GET', `/numbers/available?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('purchase by country takes a free number of that country; a bodyless purchase works; sub-accounts may buy', async () => {
    await poolNumber('NZ');
    const { childKey } = await family(t.app);
    const res = await call(t.app, childKey, 'POST', '/numbers/purchase', { country: 'NZ' });
    expect(res.status).toBe(200);
    expect(res.body.country).toBe('NZ');
    await poolNumber('AU');
    // A bodyless purchase takes the lowest free AU number of the whole pool, which other files share and may have
    // priced higher (admin.test.ts: 9.50 a month, 317 credits), so this buyer can pay for any of them.
    const buyer = await createAccount(t.app, { credits: 10_000 });
    const bare = await t.app.inject({ method: 'POST', url: '/numbers/purchase', headers: { authorization: `Bearer ${buyer.apiKey}` } });
    expect(bare.statusCode).toBe(200);
  });

  it('400 for an invalid number or a number of the other country', async () => {
    const a = await createAccount(t.app);
    expect((await call(t.app, a.apiKey, 'POST', '/numbers/purchase', { number: '12345' })).body.code).toBe('invalid_number');
    expect((await call(t.app, a.apiKey, 'POST', '/numbers/purchase', { number: '+61412345678', country: 'NZ' })).status).toBe(400);
  });
});

describe('assign and recall', () => {
  it('moves the parent\'s numbers to a sub-account (string or array) and back; group and counts follow', async () => {
    const { parent, childId, childKey } = await family(t.app);
    const [n1, n2, n3] = [await poolNumber('AU', parent.accountId), await poolNumber('AU', parent.accountId), await poolNumber('NZ', parent.accountId)];
    const one = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/numbers/assign`, { numbers: n1 });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ok: true, assigned: [n1] });
    const many = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/numbers/assign`, { numbers: [n2, n3, n1] });
    expect(many.body).toEqual({ ok: true, assigned: [n2, n3, n1] });
    expect(numbersOf((await call(t.app, parent.apiKey, 'GET', `/account/${childId}/numbers`)).body)).toEqual([n1, n2, n3].sort());
    expect(numbersOf((await call(t.app, childKey, 'GET', '/numbers')).body)).toEqual([n1, n2, n3].sort());
    expect((await call(t.app, parent.apiKey, 'GET', '/numbers')).body.numbers).toEqual([]);
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${childId}`)).body.account).toMatchObject({ number_count: 3 });

    const group = await call(t.app, parent.apiKey, 'GET', '/numbers/group');
    expect(group.status).toBe(200);
    expect((group.body.numbers as Array<{ number: string; account_id: string; business_name: string }>).map((n) => [n.number, n.account_id, n.business_name]).sort())
      .toEqual([n1, n2, n3].sort().map((n) => [n, childId, 'Child Co']));

    const back = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/numbers/recall`, { numbers: [n2] });
    expect(back.body).toEqual({ ok: true, recalled: [n2] });
    expect(numbersOf((await call(t.app, parent.apiKey, 'GET', '/numbers')).body)).toEqual([n2]);
  });

  it('409 number_unavailable for a number held elsewhere or in the pool, and nothing moves', async () => {
    const { parent, childId } = await family(t.app);
    const mine = await poolNumber('AU', parent.accountId);
    const strangers = await poolNumber('AU', (await createAccount(t.app)).accountId);
    const pool = await poolNumber('AU');
    for (const other of [strangers, pool]) {
      const res = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/numbers/assign`, { numbers: [mine, other] });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'number_unavailable', numbers: [other] });
    }
    expect(numbersOf((await call(t.app, parent.apiKey, 'GET', '/numbers')).body)).toEqual([mine]);
    const recall = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/numbers/recall`, { numbers: mine });
    expect(recall.status).toBe(409);
  });

  it('400 for an invalid number or an empty list', async () => {
    const { parent, childId } = await family(t.app);
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${childId}/numbers/assign`, { numbers: 'nope' })).body.code).toBe('invalid_number');
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${childId}/numbers/assign`, { numbers: [] })).status).toBe(400);
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${childId}/numbers/assign`, {})).status).toBe(400);
  });

  it('/numbers/group needs the hierarchy flag; /numbers and /numbers/available do not', async () => {
    const plain = await createAccount(t.app);
    const group = await call(t.app, plain.apiKey, 'GET', '/numbers/group');
    expect(group.status).toBe(403);
    expect(group.body.code).toBe('hierarchy_not_enabled');
    expect((await call(t.app, plain.apiKey, 'GET', '/numbers')).status).toBe(200);
    expect((await call(t.app, plain.apiKey, 'GET', '/numbers/available')).status).toBe(200);
  });

  it('a number has one holder: concurrent purchases of the same number lease it once', async () => {
    const n = await poolNumber('AU');
    const buyers = await Promise.all([createAccount(t.app), createAccount(t.app), createAccount(t.app)]);
    const results = await Promise.all(buyers.map((b) => call(t.app, b.apiKey, 'POST', '/numbers/purchase', { number: n })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });
});

describe('rental: numbers cost credits and are capped', () => {
  type Held = { number: string; label: string | null; assigned_to: string; status: string; paid_until: string | null };
  const held = async (key: string) => (await call(t.app, key, 'GET', '/numbers')).body.numbers as Held[];
  const ledger = (accountId: string) => rows<{ kind: string; delta: number; balance_after: number }>(t.services.db, sql`
    select kind, delta, balance_after from credit_ledger where account_id = ${accountId} and kind = 'number' order by created_at, id`);
  const DAY = 24 * 60 * 60 * 1000;

  it('charges the first 30 days at lease (ledger row), stores the label and lists it with assigned_to', async () => {
    const a = await createAccount(t.app, { credits: 20 });
    const n = await poolNumber('AU', undefined, 0.3);
    const bought = await call(t.app, a.apiKey, 'POST', '/numbers/purchase', { number: n, label: 'Front desk', link_tracking: true });
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ number: n, label: 'Front desk', status: 'active', credits_charged: 10, credits_remaining: 10 });
    const paidUntil = Date.parse(bought.body.paid_until as string);
    expect(Math.abs(paidUntil - Date.now() - 30 * DAY)).toBeLessThan(60_000);
    expect(await held(a.apiKey)).toEqual([expect.objectContaining({ number: n, label: 'Front desk', assigned_to: a.accountId, status: 'active' })]);
    expect(await ledger(a.accountId)).toEqual([{ kind: 'number', delta: -10, balance_after: 10 }]);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 10 });
  });

  it('402 when the balance is short: nothing charged, the number stays in the pool', async () => {
    const a = await createAccount(t.app);
    const n = await poolNumber('AU', undefined, 3);
    const res = await call(t.app, a.apiKey, 'POST', '/numbers/purchase', { number: n });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'insufficient_credits', credits_required: 100, credits_available: 5 });
    expect(await held(a.apiKey)).toEqual([]);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 5 });
    expect((await call(t.app, (await createAccount(t.app, { credits: 100 })).apiKey, 'POST', '/numbers/purchase', { number: n })).status).toBe(200);
  });

  it('holds at most max_numbers: 5 by default (MAX_NUMBERS), or the operator\'s setting per account', async () => {
    const a = await createAccount(t.app);
    for (let i = 0; i < 5; i++) {
      expect((await call(t.app, a.apiKey, 'POST', '/numbers/purchase', { number: await poolNumber('AU', undefined, 0) })).status).toBe(200);
    }
    const sixth = await call(t.app, a.apiKey, 'POST', '/numbers/purchase', { number: await poolNumber('AU', undefined, 0) });
    expect(sixth.status).toBe(403);
    expect(sixth.body).toMatchObject({ code: 'number_limit_reached', max_numbers: 5 });

    const b = await createAccount(t.app);
    expect((await admin(t.app, 'PATCH', `/admin/accounts/${b.accountId}`, { max_numbers: 1 })).body).toMatchObject({ max_numbers: 1 });
    expect((await call(t.app, b.apiKey, 'POST', '/numbers/purchase', { number: await poolNumber('AU', undefined, 0) })).status).toBe(200);
    expect((await call(t.app, b.apiKey, 'POST', '/numbers/purchase', { number: await poolNumber('AU', undefined, 0) })).body.code).toBe('number_limit_reached');
  });

  it('a parent and its sub-accounts share one cap: assigning numbers to a sub-account frees none; the operator sets the family\'s cap', async () => {
    const parent = await createAccount(t.app, { hierarchy: true });
    const sub = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Branch' });
    const subId = sub.body.account_id as string;
    const subKey = (await call(t.app, parent.apiKey, 'POST', `/account/${subId}/key`, { name: 'branch' })).body.key as string;
    const bought: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(t.app, parent.apiKey, 'POST', '/numbers/purchase', { number: await poolNumber('AU', undefined, 0) });
      expect(res.status).toBe(200);
      bought.push(res.body.number as string);
    }
    expect((await call(t.app, parent.apiKey, 'POST', `/account/${subId}/numbers/assign`, { numbers: bought.slice(0, 4) })).status).toBe(200);
    const more = await call(t.app, parent.apiKey, 'POST', '/numbers/purchase', { number: await poolNumber('AU', undefined, 0) });
    expect(more.status).toBe(403);
    expect(more.body).toMatchObject({ code: 'number_limit_reached', max_numbers: 5 });
    expect((await call(t.app, subKey, 'POST', '/numbers/purchase', { number: await poolNumber('AU', undefined, 0) })).body.code).toBe('number_limit_reached');
    // The operator raises the family's cap on the parent: one more, bought by either, then the cap again.
    await admin(t.app, 'PATCH', `/admin/accounts/${parent.accountId}`, { max_numbers: 6 });
    expect((await call(t.app, subKey, 'POST', '/numbers/purchase', { number: await poolNumber('AU', undefined, 0) })).status).toBe(200);
    expect((await call(t.app, parent.apiKey, 'POST', '/numbers/purchase', { number: await poolNumber('AU', undefined, 0) })).body.code).toBe('number_limit_reached');
  });

  it('renews every 30 days from the end of the period; unpaid: 7 days of grace (past_due), then back to the pool', async () => {
    const a = await createAccount(t.app, { credits: 8 });
    const n = await poolNumber('AU');
    expect((await call(t.app, a.apiKey, 'POST', '/numbers/purchase', { number: n, label: 'Shop' })).status).toBe(200);
    const due = new Date(Date.now() - 1000);
    await t.services.db.execute(sql`update numbers set paid_until = ${due} where number = ${n}`);
    await t.services.numbers.renewDue();
    const [renewed] = await held(a.apiKey);
    expect(renewed).toMatchObject({ status: 'active', paid_until: new Date(due.getTime() + 30 * DAY).toISOString() });
    expect(await ledger(a.accountId)).toEqual([
      { kind: 'number', delta: -4, balance_after: 4 },
      { kind: 'number', delta: -4, balance_after: 0 },
    ]);

    // The next period cannot be paid: grace, retried on every run, nothing charged.
    await t.services.db.execute(sql`update numbers set paid_until = ${due} where number = ${n}`);
    await t.services.numbers.renewDue();
    await t.services.numbers.renewDue();
    expect(await held(a.apiKey)).toEqual([expect.objectContaining({ number: n, status: 'past_due' })]);
    expect(await ledger(a.accountId)).toHaveLength(2);

    // Six days into the grace it is still theirs; at seven it is released.
    await t.services.db.execute(sql`update numbers set unpaid_since = now() - interval '6 days' where number = ${n}`);
    await t.services.numbers.renewDue();
    expect(await held(a.apiKey)).toHaveLength(1);
    await t.services.db.execute(sql`update numbers set unpaid_since = now() - interval '7 days' where number = ${n}`);
    await t.services.numbers.renewDue();
    expect(await held(a.apiKey)).toEqual([]);
    const pool = await call(t.app, a.apiKey, 'GET', '/numbers/available?country=AU&limit=100');
    expect(pool.status).toBe(200);
    const [row] = await rows<{ account_id: string | null; label: string | null }>(t.services.db, sql`select account_id, label from numbers where number = ${n}`);
    expect(row).toEqual({ account_id: null, label: null });
  });

  it('a topped-up account in grace pays on the next run and keeps the number', async () => {
    const a = await createAccount(t.app, { credits: 4 });
    const n = await poolNumber('AU');
    expect((await call(t.app, a.apiKey, 'POST', '/numbers/purchase', { number: n })).status).toBe(200);
    await t.services.db.execute(sql`update numbers set paid_until = now() - interval '1 day' where number = ${n}`);
    await t.services.numbers.renewDue();
    expect((await held(a.apiKey))[0]!.status).toBe('past_due');
    await admin(t.app, 'POST', `/admin/accounts/${a.accountId}/credits`, { amount: 10 });
    await t.services.numbers.renewDue();
    expect((await held(a.apiKey))[0]!.status).toBe('active');
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 6 });
  });
});
