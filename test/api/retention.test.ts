import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile, type TestAccount } from '../support/factories.ts';
import { rows } from '../../src/platform/db/client.ts';
import { runRetention } from '../../src/modules/retention/retention.jobs.ts';

// The retention job runs against the whole database, and on PostgreSQL other test files share it. So the rows
// under test are moved to 2021, long before anything else a test writes, and the job's clock is set relative to
// that: nothing written by a concurrent test is ever past the cutoff.

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString();

function v7At(ms: number): string {
  const h = ms.toString(16).padStart(12, '0');
  const r = Math.floor(Math.random() * 0xffffffffffff).toString(16).padStart(12, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7abc-8def-${r}`;
}

async function backdate(accountId: string, ids: string[], at: Date) {
  const db = t.services.db;
  const list = JSON.stringify(ids);
  await db.execute(sql`update messages set created_at = ${iso(at)}::timestamptz
    where account_id = ${accountId} and id in (select (jsonb_array_elements_text(${list}::jsonb))::uuid)`);
  await db.execute(sql`update credit_ledger set created_at = ${iso(at)}::timestamptz
    where account_id = ${accountId} and kind = 'send'
      and (message_id in (select (jsonb_array_elements_text(${list}::jsonb))::uuid)
           or campaign_id in (select campaign_id from messages where id in (select (jsonb_array_elements_text(${list}::jsonb))::uuid)))`);
  await db.execute(sql`update campaigns set created_at = ${iso(at)}::timestamptz
    where account_id = ${accountId} and id in (select campaign_id from messages where id in (select (jsonb_array_elements_text(${list}::jsonb))::uuid))`);
}

async function messageRow(id: string) {
  const [row] = await rows<{ body: string | null; optout_code: string | null; content_deleted_at: Date | string | null }>(
    t.services.db, sql`select body, optout_code, content_deleted_at from messages where id = ${id}`);
  return row!;
}

async function send(a: TestAccount, message: string, campaign?: string) {
  const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message, ...(campaign ? { campaign } : {}) });
  expect(res.status).toBe(200);
  return res.body.message_id as string;
}

describe('retention', () => {
  it('removes content past the period once the clock passes it, keeping what reports count', async () => {
    const OLD = new Date('2021-03-01T03:00:00.000Z');
    const a = await createAccount(t.app, { credits: 50 });
    const withLink = await send(a, 'Deal for you. Opt out: {{OptOutLink}}', 'Autumn');
    const plain = await send(a, 'A plain old message');
    const ongoingOld = await send(a, 'ongoing campaign, old message', 'Ongoing');
    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', {
      recipients: [{ phone: mobile(), merge_data: { code: 'SECRET-1' } }, { phone: mobile(), merge_data: { code: 'SECRET-2' } }],
      message: 'Your code is {{code}}',
    });
    expect(batch.status).toBe(200);
    const batchIds = (await rows<{ id: string }>(t.services.db, sql`select id from messages where campaign_id = ${batch.body.campaign_id as string}`)).map((r) => r.id);
    await t.services.db.execute(sql`update messages set status = 'delivered', sent_at = created_at, dlr_status = 'delivered', dlr_received_at = created_at where id = ${withLink}`);
    await backdate(a.accountId, [withLink, plain, ongoingOld, ...batchIds], OLD);
    // Newer content: untouched by the same run.
    const recent = await send(a, 'A recent message');
    const ongoingNew = await send(a, 'ongoing campaign, recent message', 'Ongoing');

    const db = t.services.db;
    await db.execute(sql`insert into inbound_messages (id, account_id, from_number, to_number, body, received_at)
      values (${v7At(OLD.getTime())}, ${a.accountId}, '+61412000001', '+61480000000', 'old reply', ${iso(OLD)}::timestamptz),
             (${v7At(Date.now())}, ${a.accountId}, '+61412000002', '+61480000000', 'new reply', now())`);
    const oldDelivery = v7At(OLD.getTime());
    const oldPending = v7At(OLD.getTime() + 1);
    const newDelivery = v7At(Date.now());
    await db.execute(sql`insert into webhook_deliveries (id, account_id, event, message_id, body, status, created_at) values
      (${oldDelivery}, ${a.accountId}, 'message.dlr', ${withLink}, '{"body":"Deal"}', 'delivered', ${iso(OLD)}::timestamptz),
      (${oldPending}, ${a.accountId}, 'message.dlr', ${withLink}, '{"body":"Deal"}', 'pending', ${iso(OLD)}::timestamptz),
      (${newDelivery}, ${a.accountId}, 'message.dlr', ${recent}, '{"body":"recent"}', 'delivered', now())`);
    await db.execute(sql`insert into webhook_attempts (id, delivery_id, attempted_at, status_code, duration_ms)
      values (${v7At(OLD.getTime())}, ${oldDelivery}, ${iso(OLD)}::timestamptz, 200, 12)`);
    const ref = Math.floor(Math.random() * 60_000);
    await db.execute(sql`insert into inbound_fragments (from_number, to_number, ref, total, seq, text, received_at) values
      ('+61412000003', '+61480000000', ${ref}, 2, 1, 'half of a', ${iso(OLD)}::timestamptz),
      ('+61412000003', '+61480000000', ${ref}, 2, 2, 'fresh half', now())`);

    const reportUrl = '/report?from=2021-02-25&to=2021-03-05';
    const before = await call(t.app, a.apiKey, 'GET', reportUrl);
    expect(before.body.summary).toMatchObject({ messages: { total: 5, parts: 5, sent: 1, delivered: 1, failed: 0 }, credits_consumed: 5, inbound: 1 });
    const viewBefore = await call(t.app, a.apiKey, 'GET', `/message/${withLink}`);
    expect((viewBefore.body.message as { body: string }).body).toMatch(/^Deal for you\. Opt out: http/);
    expect((await messageRow(withLink)).optout_code).not.toBeNull();

    // A day short of the period: nothing of ours goes.
    await runRetention({ db, now: new Date(OLD.getTime() + 89 * DAY), retentionDays: 90, batchSize: 2 });
    expect((await messageRow(plain)).body).toBe('A plain old message');

    // The clock moves past it.
    const now = new Date(OLD.getTime() + 91 * DAY);
    const result = await runRetention({ db, now, retentionDays: 90, batchSize: 2 });
    expect(result.cutoff).toBe(new Date(now.getTime() - 90 * DAY).toISOString());
    expect(result.messages).toBeGreaterThanOrEqual(5);

    for (const id of [withLink, plain, ongoingOld, ...batchIds]) {
      const row = await messageRow(id);
      expect(row).toMatchObject({ body: null, optout_code: null });
      expect(new Date(row.content_deleted_at!).toISOString()).toBe(now.toISOString());
    }
    expect((await messageRow(recent)).body).toBe('A recent message');
    expect((await messageRow(ongoingNew)).body).toBe('ongoing campaign, recent message');
    // The search table's copy of each body (GET /messages?q=) goes with it; the number stays searchable.
    const searchRows = await rows<{ message_id: string; recipient: string; body: string | null }>(db, sql`
      select message_id, recipient, body from message_search where message_id in (${plain}, ${recent})`);
    expect(Object.fromEntries(searchRows.map((r) => [r.message_id, r.body]))).toEqual({ [plain]: null, [recent]: 'A recent message' });
    expect(searchRows.every((r) => r.recipient.startsWith('+'))).toBe(true);

    const view = await call(t.app, a.apiKey, 'GET', `/message/${withLink}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      message: { id: withLink, body: null, status: 'delivered', parts: viewBefore.body.message && (viewBefore.body.message as { parts: number }).parts },
      delivery_receipt: { status: 'delivered' },
    });
    expect({ ...(view.body.message as object), body: 'x' }).toEqual({ ...(viewBefore.body.message as object), body: 'x' });

    const after = await call(t.app, a.apiKey, 'GET', reportUrl);
    expect(after.body).toEqual(before.body);

    const campaignBodies = await rows<{ name: string | null; message_body: string | null }>(db, sql`
      select name, message_body from campaigns where account_id = ${a.accountId} order by name nulls first`);
    expect(campaignBodies).toEqual([
      { name: null, message_body: null },
      { name: 'Autumn', message_body: null },
      // its newest message is recent: the template stays
      { name: 'Ongoing', message_body: 'ongoing campaign, old message' },
    ]);
    const campaignView = await call(t.app, a.apiKey, 'GET', `/campaign/${batch.body.campaign_id as string}`);
    expect(campaignView.status).toBe(200);
    expect((campaignView.body.campaign as { message_body: unknown }).message_body).toBeNull();
    expect((campaignView.body.messages as Array<{ body: unknown }>).map((m) => m.body)).toEqual([null, null]);

    const inbound = await rows<{ body: string | null }>(db, sql`select body from inbound_messages where account_id = ${a.accountId} order by received_at`);
    expect(inbound.map((r) => r.body)).toEqual([null, 'new reply']);
    const deliveries = await rows<{ id: string }>(db, sql`select id from webhook_deliveries where account_id = ${a.accountId} order by id`);
    expect(deliveries.map((r) => r.id)).toEqual([oldPending, newDelivery]);
    const attempts = await rows<{ n: number }>(db, sql`select count(*)::int as n from webhook_attempts where delivery_id = ${oldDelivery}`);
    expect(attempts[0]!.n).toBe(0);
    const fragments = await rows<{ text: string }>(db, sql`select text from inbound_fragments where ref = ${ref} and from_number = '+61412000003'`);
    expect(fragments.map((r) => r.text)).toEqual(['fresh half']);

    // A second pass finds nothing of ours and leaves the deletion time alone.
    await runRetention({ db, now: new Date(now.getTime() + DAY), retentionDays: 90 });
    expect(new Date((await messageRow(plain)).content_deleted_at!).toISOString()).toBe(now.toISOString());
  });

  it('steps round a row another transaction holds, and takes it on the next pass', async () => {
    const OLD = new Date('2021-06-01T03:00:00.000Z');
    const a = await createAccount(t.app, { credits: 20 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await send(a, `locked test ${i}`));
    await backdate(a.accountId, ids, OLD);
    const now = new Date(OLD.getTime() + 91 * DAY);
    const db = t.services.db;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select id from messages where id = ${ids[0]!} for update`);
      // Would hang on the row lock without SKIP LOCKED; the test's timeout would fail it.
      await runRetention({ db, now, retentionDays: 90, batchSize: 2 });
      expect((await messageRow(ids[1]!)).body).toBeNull();
    });
    expect((await messageRow(ids[0]!)).body).toBe('locked test 0');
    await runRetention({ db, now, retentionDays: 90, batchSize: 2 });
    expect((await messageRow(ids[0]!)).body).toBeNull();
  });

  it('two workers at once split the work and both finish', async () => {
    const OLD = new Date('2021-09-01T03:00:00.000Z');
    const a = await createAccount(t.app, { credits: 40 });
    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', {
      recipients: Array.from({ length: 30 }, () => mobile()), message: 'split me',
    });
    const ids = (await rows<{ id: string }>(t.services.db, sql`select id from messages where campaign_id = ${batch.body.campaign_id as string}`)).map((r) => r.id);
    expect(ids).toHaveLength(30);
    await backdate(a.accountId, ids, OLD);
    const now = new Date(OLD.getTime() + 91 * DAY);
    const [r1, r2] = await Promise.all([
      runRetention({ db: t.services.db, now, retentionDays: 90, batchSize: 3 }),
      runRetention({ db: t.services.db, now, retentionDays: 90, batchSize: 3 }),
    ]);
    expect(r1.messages + r2.messages).toBeGreaterThanOrEqual(30);
    const left = await rows<{ n: number }>(t.services.db, sql`select count(*)::int as n from messages where account_id = ${a.accountId} and body is not null`);
    expect(left[0]!.n).toBe(0);
  });
});
