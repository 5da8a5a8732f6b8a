// Scheduled sending: send_at on /send and /send-batch, cancelling (a message, a campaign's schedule, an opt-out),
// and the scheduler's release: due messages become queued exactly once, with two releasers on separate
// connection pools (as two dispatcher processes would be) racing for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, rows } from '../../src/platform/db/client.ts';
import { releaseAllDue } from '../../src/modules/scheduling/schedule.jobs.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });


const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString().replace('Z', '+00:00');
const balance = async (key: string) => (await call(t.app, key, 'GET', '/balance')).body.credits;
const message = async (key: string, id: string) => (await call(t.app, key, 'GET', `/message/${id}`)).body.message as Record<string, unknown>;

describe('send_at', () => {
  it('holds the message as scheduled with scheduled_at, charging at acceptance', async () => {
    const a = await createAccount(t.app, { credits: 5 });
    const sendAt = '2099-01-01T09:00:00+11:00';
    const far = new Date(Date.now() + 34 * 86_400_000);
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'later', send_at: far.toISOString() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ credits_used: 1, credits_remaining: 4 });
    expect(await message(a.apiKey, res.body.message_id as string)).toMatchObject({ status: 'scheduled', scheduled_at: far.toISOString(), sent_at: null });
    const listed = await call(t.app, a.apiKey, 'GET', '/messages?status=scheduled');
    expect((listed.body.messages as unknown[])).toHaveLength(1);
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x', send_at: sendAt })).body.code).toBe('invalid_send_at');
  });

  it.each([
    ['in the past', () => new Date(Date.now() - 60_000).toISOString()],
    ['without an offset', () => '2030-05-01T09:00:00'],
    ['more than 35 days ahead', () => new Date(Date.now() + 36 * 86_400_000).toISOString()],
  ])('400 invalid_send_at %s, nothing charged', async (_why, sendAt) => {
    const a = await createAccount(t.app, { credits: 5 });
    for (const [url, body] of [['/send', { to: mobile(), message: 'x' }], ['/send-batch', { recipients: [mobile()], message: 'x' }]] as const) {
      const res = await call(t.app, a.apiKey, 'POST', url, { ...body, send_at: sendAt() });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_send_at');
    }
    expect(await balance(a.apiKey)).toBe(5);
  });
});

describe('cancelling', () => {
  it('DELETE /message/{id} cancels and refunds a scheduled message; 409 once it is not scheduled; 404 for others', async () => {
    const a = await createAccount(t.app, { credits: 5 });
    const b = await createAccount(t.app);
    const later = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x'.repeat(200), send_at: inHours(2) });
    const now = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'now' });
    expect(await balance(a.apiKey)).toBe(2);
    const id = later.body.message_id as string;
    expect((await call(t.app, b.apiKey, 'DELETE', `/message/${id}`)).status).toBe(404);
    const res = await call(t.app, a.apiKey, 'DELETE', `/message/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, status: 'cancelled', credits_refunded: 2, credits_remaining: 4 });
    expect(await message(a.apiKey, id)).toMatchObject({ status: 'cancelled', error_code: 'cancelled', error_message: expect.stringMatching(/cancelled/) });
    const again = await call(t.app, a.apiKey, 'DELETE', `/message/${id}`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('not_scheduled');
    expect((await call(t.app, a.apiKey, 'DELETE', `/message/${now.body.message_id as string}`)).body.code).toBe('not_scheduled');
    expect((await call(t.app, a.apiKey, 'DELETE', '/message/01a1fc97-f1e8-765e-92c4-fdeb302ed871')).status).toBe(404);
    expect(await balance(a.apiKey)).toBe(4);
  });

  it('a scheduled batch shows scheduled_at on its campaign; DELETE /campaign/{id}/schedule cancels what is still scheduled', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const sendAt = inHours(3);
    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [mobile(), mobile(), mobile()], message: 'sale', campaign: 'weekend', send_at: sendAt });
    expect(batch.body).toMatchObject({ recipients_queued: 3, credits_remaining: 7 });
    const campaignId = batch.body.campaign_id as string;
    const camp = await call(t.app, a.apiKey, 'GET', `/campaign/${campaignId}`);
    expect(camp.body.campaign).toMatchObject({ scheduled_at: new Date(sendAt).toISOString(), status: 'scheduled' });
    expect(camp.body.stats).toMatchObject({ total: 3, scheduled: 3, queued: 0, cancelled: 0 });
    const b = await createAccount(t.app);
    expect((await call(t.app, b.apiKey, 'DELETE', `/campaign/${campaignId}/schedule`)).status).toBe(404);
    const res = await call(t.app, a.apiKey, 'DELETE', `/campaign/${campaignId}/schedule`);
    expect(res.body).toEqual({ ok: true, cancelled: 3, credits_refunded: 3, credits_remaining: 10 });
    const after = await call(t.app, a.apiKey, 'GET', `/campaign/${campaignId}`);
    expect(after.body.campaign).toMatchObject({ scheduled_at: null, status: 'completed' });
    expect(after.body.stats).toMatchObject({ scheduled: 0, cancelled: 3 });
    expect((await call(t.app, a.apiKey, 'DELETE', `/campaign/${campaignId}/schedule`)).body).toMatchObject({ cancelled: 0, credits_remaining: 10 });
  });

  it('opting out cancels and refunds that number\'s scheduled messages only', async () => {
    const a = await createAccount(t.app, { credits: 5 });
    const [x, y] = [mobile(), mobile()];
    const toX = await call(t.app, a.apiKey, 'POST', '/send', { to: x, message: 'for x', send_at: inHours(1) });
    const toY = await call(t.app, a.apiKey, 'POST', '/send', { to: y, message: 'for y', send_at: inHours(1) });
    await call(t.app, a.apiKey, 'POST', '/optouts', { number: x });
    expect(await message(a.apiKey, toX.body.message_id as string)).toMatchObject({ status: 'cancelled', error_code: 'opted_out' });
    expect(await message(a.apiKey, toY.body.message_id as string)).toMatchObject({ status: 'scheduled' });
    expect(await balance(a.apiKey)).toBe(4);
  });
});

describe('the scheduler', () => {
  it('releases due messages to the queue once; not-yet-due ones wait', async () => {
    const a = await createAccount(t.app, { credits: 5 });
    const due = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'due', send_at: inHours(1) });
    const notYet = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'not yet', send_at: inHours(1) });
    // Time passes for one of them (the clock is the database's, so the row moves instead).
    await t.services.db.execute(sql`update messages set scheduled_at = now() - interval '1 second' where id = ${due.body.message_id as string}`);
    const woken: string[] = [];
    expect(await releaseAllDue(t.services.db, (ids) => { woken.push(...ids); })).toBeGreaterThanOrEqual(1);
    expect(woken).toContain(due.body.message_id);
    expect(woken).not.toContain(notYet.body.message_id);
    expect(await message(a.apiKey, due.body.message_id as string)).toMatchObject({ status: 'queued', scheduled_at: expect.any(String) });
    expect(await message(a.apiKey, notYet.body.message_id as string)).toMatchObject({ status: 'scheduled' });
    expect((await call(t.app, a.apiKey, 'DELETE', `/message/${due.body.message_id as string}`)).status).toBe(409);
  });

  it('two releasers on separate pools release each of 2,500 due messages exactly once', async () => {
    const a = await createAccount(t.app, { credits: 10_000 });
    for (let i = 0; i < 3; i++) {
      const n = i < 2 ? 1000 : 500;
      const res = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: Array.from({ length: n }, () => mobile()), message: `wave ${i}`, send_at: inHours(1) });
      expect(res.body.recipients_queued).toBe(n);
    }
    await t.services.db.execute(sql`update messages set scheduled_at = now() - interval '1 second' where account_id = ${a.accountId} and status = 'scheduled'`);
    const other = await openDatabase({ databaseUrl: t.config.databaseUrl, dataDir: t.config.dataDir, poolSize: 4 });
    try {
      // Small batches so the two interleave many times.
      const one: string[] = [];
      const two: string[] = [];
      await Promise.all([
        releaseAllDue(t.services.db, (ids) => { one.push(...ids); }, 100),
        releaseAllDue(other.db, (ids) => { two.push(...ids); }, 100),
      ]);
      const [counts] = await rows<{ queued: number; scheduled: number }>(t.services.db, sql`
        select count(*) filter (where status = 'queued')::int as queued, count(*) filter (where status = 'scheduled')::int as scheduled
        from messages where account_id = ${a.accountId}`);
      expect(counts).toEqual({ queued: 2500, scheduled: 0 });
      // Each releaser reports the rows it changed (other files' due rows may be among them): ours, each once.
      const ours = new Set((await rows<{ id: string }>(t.services.db, sql`select id from messages where account_id = ${a.accountId}`)).map((r) => r.id));
      const mineOne = one.filter((id) => ours.has(id));
      const mineTwo = two.filter((id) => ours.has(id));
      expect(mineOne.length + mineTwo.length).toBe(2500);
      expect(new Set([...mineOne, ...mineTwo]).size).toBe(2500);
    } finally {
      await other.close();
    }
  });
});
