// Failed sign-ins slow the guesser, not the user: growing delays per email for browsers that never signed in to
// it, none from strangers for a browser that has (the device cookie), and a per-address limit on failures of every
// kind (passwords, operator tokens, invite tokens) that never refuses a right credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { randomBytes, randomUUID } from 'node:crypto';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts';
import { admin } from '../support/factories.ts';
import { acceptInvite, PASSWORD } from '../support/sessions.ts';

let t: TestApp;
// The documented default limit; every test comes from an address of its own.
beforeAll(async () => { t = await createTestApp({ AUTH_FAILURE_LIMIT: '20' }); });
afterAll(async () => { await t.close(); });

let lastOctet = 0;
const nextAddress = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${++lastOctet % 250}`;

async function owner() {
  const email = `owner-${randomUUID()}@cafe.test`;
  const res = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Harbour Cafe', email, credits: 10 });
  await acceptInvite(t.app, res.body.owner_invite_url as string);
  return { email };
}

const login = (email: string, password: string, opts: { device?: string; from?: string } = {}) => t.app.inject({
  method: 'POST', url: '/session', payload: { email, password }, remoteAddress: opts.from ?? nextAddress(),
  cookies: opts.device ? { tasman_device: opts.device } : {},
});
const deviceOf = (res: Awaited<ReturnType<typeof login>>) => res.cookies.find((c) => c.name === 'tasman_device');

/** The wait before the next try, moved into the past rather than waited for. */
const pastTheWait = (key: string, seconds: number) =>
  t.services.db.execute(sql`update auth_failures set last_failed_at = last_failed_at - make_interval(secs => ${seconds}) where key = ${key}`);

/** `n` wrong passwords for `email` from browsers without a device cookie, each after the wait the last one set. */
async function strangersFail(email: string, n: number) {
  for (let i = 0; i < n; i++) {
    let res = await login(email, `wrong-password-${i}`);
    if (res.statusCode === 429) {
      await pastTheWait(`email:${email}`, Number(res.headers['retry-after']));
      res = await login(email, `wrong-password-${i}`);
    }
    expect(res.statusCode).toBe(401);
  }
}

describe('failed sign-ins per email', () => {
  it('five cost nothing; after that each doubles the wait, answered 429 login_locked with Retry-After', async () => {
    const o = await owner();
    for (let i = 0; i < 6; i++) expect((await login(o.email, `wrong-${i}`)).statusCode).toBe(401);
    const waiting = await login(o.email, PASSWORD);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().code).toBe('login_locked');
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(waiting.headers['retry-after'])).toBeLessThanOrEqual(2);
    await strangersFail(o.email, 3);
    const longer = await login(o.email, PASSWORD);
    expect(Number(longer.headers['retry-after'])).toBeGreaterThan(8);
    expect(Number(longer.headers['retry-after'])).toBeLessThanOrEqual(16);
    await pastTheWait(`email:${o.email}`, 16);
    expect((await login(o.email, PASSWORD)).statusCode).toBe(200);
    // A whole sign-in starts the count again.
    expect((await login(o.email, 'wrong-again')).statusCode).toBe(401);
    expect((await login(o.email, PASSWORD)).statusCode).toBe(200);
  });

  it('strangers\' wrong passwords do not keep out a user signing in from a browser that signed in before', async () => {
    const o = await owner();
    const first = await login(o.email, PASSWORD);
    expect(first.statusCode).toBe(200);
    const device = deviceOf(first)!;
    expect(device).toMatchObject({ path: '/session', httpOnly: true, sameSite: 'Lax' });
    expect(device.maxAge).toBe(365 * 86_400);
    await strangersFail(o.email, 20);
    const stranger = await login(o.email, PASSWORD);
    expect(stranger.statusCode).toBe(429);
    expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(14 * 60);
    const known = await login(o.email, PASSWORD, { device: device.value });
    expect(known.statusCode).toBe(200);
    expect(known.json().user.email).toBe(o.email);
    // The known browser's own failures delay only itself.
    for (let i = 0; i < 6; i++) expect((await login(o.email, `mine-${i}`, { device: device.value })).statusCode).toBe(401);
    expect((await login(o.email, PASSWORD, { device: device.value })).statusCode).toBe(429);
    const other = await owner();
    expect((await login(other.email, PASSWORD)).statusCode).toBe(200);
  });

  it('a device cookie is for the email it signed in to, and a forged or altered one is a stranger\'s', async () => {
    const a = await owner();
    const b = await owner();
    const deviceA = deviceOf(await login(a.email, PASSWORD))!.value;
    await strangersFail(b.email, 12);
    expect((await login(b.email, PASSWORD, { device: deviceA })).statusCode).toBe(429);
    const [nonce, signature] = deviceA.split('.') as [string, string];
    const altered = `${nonce}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    await strangersFail(a.email, 12);
    expect((await login(a.email, PASSWORD, { device: altered })).statusCode).toBe(429);
    expect((await login(a.email, PASSWORD, { device: deviceA })).statusCode).toBe(200);
    // One browser keeps an entry per email it signed in to.
    const both = deviceOf(await login(a.email, PASSWORD, { device: deviceA }))!.value;
    expect(both).toBe(deviceA);
  });
});

describe('failed attempts per address (AUTH_FAILURE_LIMIT)', () => {
  it('30 bad operator tokens: 20 answered 401, then 429 with Retry-After; the right token from there still signs in', async () => {
    const from = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/session/operator', payload: { token: `guess-${i}` }, remoteAddress: from });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().code).toBe('too_many_failures');
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      }
    }
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(10).fill(429)]);
    const bearer = await t.app.inject({ method: 'GET', url: '/admin/accounts', headers: { authorization: 'Bearer still-guessing' }, remoteAddress: from });
    expect(bearer.statusCode).toBe(429);
    const right = await t.app.inject({ method: 'POST', url: '/session/operator', payload: { token: ADMIN_TOKEN }, remoteAddress: from });
    expect(right.statusCode).toBe(200);
    // Another address is unaffected; and once the minute has passed, this one answers 401 again.
    expect((await t.app.inject({ method: 'POST', url: '/session/operator', payload: { token: 'x' }, remoteAddress: nextAddress() })).statusCode).toBe(401);
    await t.services.db.execute(sql`update auth_failures set window_start = window_start - interval '61 seconds' where key = ${`addr:${from}`}`);
    expect((await t.app.inject({ method: 'POST', url: '/session/operator', payload: { token: 'x' }, remoteAddress: from })).statusCode).toBe(401);
  });

  it('40 emails from one address: 429 after 20 failures, while a right password from the same address signs in', async () => {
    const from = nextAddress();
    const o = await owner();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await login(`nobody-${i}-${randomUUID()}@cafe.test`, 'a guess at it', { from })).statusCode);
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(20).fill(429)]);
    expect((await login(o.email, PASSWORD, { from })).statusCode).toBe(200);
  });

  it('invite tokens count too', async () => {
    const from = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      statuses.push((await t.app.inject({ method: 'POST', url: '/invites/inspect', payload: { token: randomBytes(32).toString('base64url') }, remoteAddress: from })).statusCode);
    }
    expect(statuses).toEqual([...Array(20).fill(404), ...Array(5).fill(429)]);
  });

  it('150 random API keys: every one 401 (never 429), each counted for its address in /metrics', async () => {
    const from = nextAddress();
    for (let i = 0; i < 150; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/balance', headers: { authorization: `Bearer tsm_${randomBytes(24).toString('base64url')}` }, remoteAddress: from });
      expect(res.statusCode).toBe(401);
    }
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(metrics.body).toContain(`tasman_auth_unknown_keys_total{address="${from}"} 150`);
  });
});
