import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { authSuite } from '../support/auth-suite.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const MISSING = '01a1fc97-f1e8-765e-92c4-fdeb302ed871';

async function family(app: FastifyInstance) {
  const parent = await createAccount(app, { credits: 100, hierarchy: true });
  const created = await call(app, parent.apiKey, 'POST', '/accounts', { business_name: 'Child Co', seed_credits: 5 });
  const childId = created.body.id as string;
  const key = await call(app, parent.apiKey, 'POST', `/account/${childId}/key`, { name: 'k' });
  return { parent, childId, childKey: key.body.key as string };
}

/** A pool number; NZ ones from a separate range so country filters can be checked. */
async function poolNumber(country: 'AU' | 'NZ' = 'AU', accountId?: string): Promise<string> {
  const number = country === 'AU' ? mobile() : `+6421${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`.replace(/99[6-9]$/, '123');
  const res = await admin(t.app, 'POST', '/admin/numbers', { number, country, price_monthly: 12.5, ...(accountId ? { account_id: accountId } : {}) });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return number;
}

const numbersOf = (body: Record<string, unknown>) => (body.numbers as Array<{ number: string }>).map((n) => n.number).sort();

authSuite(() => t.app, [
  { method: 'GET', url: '/numbers' },
  { method: 'GET', url: '/numbers/group' },
  { method: 'GET', url: '/numbers/available' },
  { method: 'POST', url: '/numbers/purchase', payload: {} },
  { method: 'GET', url: `/account/${MISSING}/numbers` },
  { method: 'POST', url: `/account/${MISSING}/numbers/assign`, payload: { numbers: '+61412345678' } },
  { method: 'POST', url: `/account/${MISSING}/numbers/recall`, payload: { numbers: '+61412345678' } },
]);

describe('GET /numbers/available and POST /numbers/purchase', () => {
  it('lists pool numbers with limit and offset, filters by country, and purchase leases one to the caller', async () => {
    const nz = await poolNumber('NZ');
    const page = await call(t.app, (await createAccount(t.app)).apiKey, 'GET', '/numbers/available?country=NZ&limit=100');
    expect(page.status).toBe(200);
    expect(page.body.limit).toBe(100);
    expect(page.body.offset).toBe(0);
    const items = page.body.numbers as Array<{ number: string; country: string; price_monthly: number }>;
    expect(items.every((n) => n.country === 'NZ')).toBe(true);
    expect(items.find((n) => n.number === nz)).toEqual({ id: expect.any(String), number: nz, country: 'NZ', price_monthly: 12.5 });

    const buyer = await createAccount(t.app);
    const bought = await call(t.app, buyer.apiKey, 'POST', '/numbers/purchase', { number: nz });
    expect(bought.status).toBe(200);
    expect(bought.body).toEqual({
      ok: true,
      number: { id: expect.any(String), number: nz, country: 'NZ', price_monthly: 12.5, assigned_at: expect.any(String), created_at: expect.any(String) },
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
    expect((res.body.number as { country: string }).country).toBe('NZ');
    await poolNumber('AU');
    const buyer = await createAccount(t.app);
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
