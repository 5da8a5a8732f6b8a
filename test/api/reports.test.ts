import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile, type TestAccount } from '../support/factories.ts';
import { changeCredits } from '../../src/modules/credits/ledger.repo.ts';
import { sydneyDay, sydneyDayEndExclusive, sydneyDayStart } from '../../src/platform/sydney-day.ts';
import { uuidv7 } from '../../src/platform/ids.ts';
import { addDays } from '../../src/modules/reports/report-range.ts';

// Reports are checked against counts worked out here, from the messages this file sent through the API and the
// outcomes it then wrote into the database the way the carrier link would (status, sent_at, refund rows).

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });


type Outcome = 'queued' | 'sent' | 'delivered' | 'failed_after_send' | 'rejected';
interface Fact {
  id: string; recipient: string; country: 'AU' | 'NZ'; campaignId: string | null; body: string;
  parts: number; outcome: Outcome; createdAt: Date; refunded: number;
}
interface Inbound { from: string; body: string; receivedAt: Date; replyCampaign: string | null }
interface Optout { number: string; createdAt: Date }
interface Filters { direction?: string; status?: string; country?: string; campaign_id?: string; keyword?: string; number?: string }

// Calendar days, not 24-hour spans: a Sydney day is 23 or 25 hours long when daylight saving starts or ends.
const today = () => sydneyDay(new Date());
const daysAgo = (n: number) => addDays(today(), -n);
const nz = () => `+6421${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}${Math.floor(Math.random() * 9)}`;

async function setOutcome(id: string, outcome: Outcome, accountId: string, parts: number) {
  const db = t.services.db;
  if (outcome === 'sent') await db.execute(sql`update messages set status = 'sent', sent_at = now() where id = ${id}`);
  if (outcome === 'delivered') {
    await db.execute(sql`update messages set status = 'delivered', sent_at = now(), dlr_status = 'delivered', dlr_received_at = now() where id = ${id}`);
  }
  if (outcome === 'failed_after_send') {
    await db.execute(sql`update messages set status = 'failed', sent_at = now(), dlr_status = 'undelivered', dlr_received_at = now() where id = ${id}`);
  }
  if (outcome === 'rejected') {
    await db.execute(sql`update messages set status = 'failed', error_code = 'submit_rejected' where id = ${id}`);
    await changeCredits(db, { accountId, delta: parts, kind: 'refund', messageId: id });
  }
}

async function moveMessage(id: string, at: Date) {
  await t.services.db.execute(sql`update messages set created_at = ${at.toISOString()}::timestamptz where id = ${id}`);
  await t.services.db.execute(sql`update credit_ledger set created_at = ${at.toISOString()}::timestamptz where message_id = ${id}`);
}

async function addInbound(accountId: string, i: Inbound, inReplyTo: string | null, isOptout = false) {
  await t.services.db.execute(sql`
    insert into inbound_messages (id, account_id, from_number, to_number, body, received_at, in_reply_to, is_optout)
    values (${uuidv7()}, ${accountId}, ${i.from}, '+61480000000', ${i.body}, ${i.receivedAt.toISOString()}::timestamptz, ${inReplyTo}, ${isOptout})`);
}

async function addOptout(accountId: string, o: Optout) {
  await t.services.db.execute(sql`
    insert into optouts (account_id, number, source, created_at) values (${accountId}, ${o.number}, 'keyword', ${o.createdAt.toISOString()}::timestamptz)`);
}

/** What the counter definitions in docs/reports.md say the report must show, computed from the facts alone. */
function expected(facts: Fact[], inbound: Inbound[], optouts: Optout[], range: { from: string; to: string }, f: Filters) {
  const start = sydneyDayStart(range.from).getTime();
  const end = sydneyDayEndExclusive(range.to).getTime();
  const within = (d: Date) => d.getTime() >= start && d.getTime() < end;
  const wasSent = (x: Fact) => x.outcome === 'sent' || x.outcome === 'delivered' || x.outcome === 'failed_after_send';
  const statusOf = (x: Fact) => ({ queued: 'queued', sent: 'sent', delivered: 'delivered', failed_after_send: 'failed', rejected: 'failed' })[x.outcome];
  const countryOf = (n: string) => (n.startsWith('+61') ? 'AU' : n.startsWith('+64') ? 'NZ' : '??');
  const has = (text: string | null, kw: string) => text !== null && text.toLowerCase().includes(kw.toLowerCase());
  const messageFiltered = f.status || f.country || f.campaign_id || f.keyword || f.number;

  const out = facts.filter((x) => within(x.createdAt) && f.direction !== 'inbound'
    && (!f.status || (f.status === 'sent' ? wasSent(x) : statusOf(x) === f.status))
    && (!f.country || x.country === f.country)
    && (!f.campaign_id || x.campaignId === f.campaign_id)
    && (!f.keyword || has(x.body, f.keyword))
    && (!f.number || x.recipient === f.number));
  const inb = inbound.filter((i) => within(i.receivedAt) && f.direction !== 'outbound' && !f.status
    && (!f.country || countryOf(i.from) === f.country)
    && (!f.campaign_id || i.replyCampaign === f.campaign_id)
    && (!f.keyword || has(i.body, f.keyword))
    && (!f.number || i.from === f.number));
  const opt = optouts.filter((o) => within(o.createdAt) && !f.status && !f.campaign_id && !f.keyword
    && (!f.country || countryOf(o.number) === f.country)
    && (!f.number || o.number === f.number));
  // Unfiltered, the ledger: debits of messages created in range, less refunds written in range (all refunds in
  // this file are written now, for messages created now). Filtered: the same, for the matching messages only.
  const credited = messageFiltered ? out : facts.filter((x) => within(x.createdAt) && f.direction !== 'inbound');
  return {
    messages: {
      total: out.length,
      parts: out.reduce((s, x) => s + x.parts, 0),
      sent: out.filter(wasSent).length,
      delivered: out.filter((x) => x.outcome === 'delivered').length,
      failed: out.filter((x) => x.outcome === 'failed_after_send' || x.outcome === 'rejected').length,
    },
    credits_consumed: credited.reduce((s, x) => s + x.parts - x.refunded, 0),
    inbound: inb.length,
    optouts: opt.length,
  };
}

interface World { account: TestAccount; facts: Fact[]; inbound: Inbound[]; optouts: Optout[]; x: string; nz1: string; launch: string; spring: string }

/** One account's month: singles, a named campaign, a merged batch, outcomes of every kind, an old message. */
async function buildWorld(): Promise<World> {
  const account = await createAccount(t.app, { credits: 100 });
  await admin(t.app, 'POST', `/admin/accounts/${account.accountId}/credits`, { amount: 7 }); // a top-up: not consumption
  const facts: Fact[] = [];
  const x = mobile();
  const nz1 = nz();
  const au1 = mobile();
  const single = async (to: string, message: string, outcome: Outcome, campaign?: string) => {
    const res = await call(t.app, account.apiKey, 'POST', '/send', { to, message, ...(campaign ? { campaign } : {}) });
    expect(res.status).toBe(200);
    const id = res.body.message_id as string;
    const got = await call(t.app, account.apiKey, 'GET', `/message/${id}`);
    const m = got.body.message as { recipient: string; campaign_id: string | null; parts: number };
    const fact: Fact = {
      id, recipient: m.recipient, country: m.recipient.startsWith('+64') ? 'NZ' : 'AU', campaignId: m.campaign_id,
      body: message, parts: m.parts, outcome, createdAt: new Date(), refunded: outcome === 'rejected' ? m.parts : 0,
    };
    await setOutcome(id, outcome, account.accountId, m.parts);
    facts.push(fact);
    return fact;
  };
  await single(au1, 'Hello Alpha offer', 'delivered');
  await single(nz1, `Beta ${'b'.repeat(200)}`, 'sent');
  const spring = (await single(mobile(), 'Spring SALE now', 'failed_after_send', 'Spring')).campaignId!;
  await single(x, 'Another alpha', 'rejected');
  await single(x, 'Still queued', 'queued');

  const batch = await call(t.app, account.apiKey, 'POST', '/send-batch', {
    recipients: [{ phone: au1, merge_data: { name: 'Ann' } }, { phone: nz1, merge_data: { name: 'Ngaio' } }, x],
    message: 'Batch {{name}} ALPHA launch', campaign: 'Launch',
  });
  expect(batch.status).toBe(200);
  const launch = batch.body.campaign_id as string;
  const batchRows = (await t.services.db.execute(sql`
    select id, recipient, body, parts from messages where campaign_id = ${launch} order by id`) as unknown as {
    rows: Array<{ id: string; recipient: string; body: string; parts: number }>;
  }).rows;
  const batchOutcome: Record<string, Outcome> = { [au1]: 'delivered', [nz1]: 'queued', [x]: 'delivered' };
  for (const r of batchRows) {
    const outcome = batchOutcome[r.recipient]!;
    await setOutcome(r.id, outcome, account.accountId, r.parts);
    facts.push({
      id: r.id, recipient: r.recipient, country: r.recipient.startsWith('+64') ? 'NZ' : 'AU', campaignId: launch,
      body: r.body, parts: r.parts, outcome, createdAt: new Date(), refunded: 0,
    });
  }

  // Forty days back: outside the default range.
  const old = await single(x, 'Old alpha message', 'delivered');
  old.createdAt = new Date(sydneyDayStart(daysAgo(40)).getTime() + 3_600_000);
  await moveMessage(old.id, old.createdAt);

  const toX = batchRows.find((r) => r.recipient === x)!.id;
  const inbound: Inbound[] = [
    { from: x, body: 'Thanks ALPHA team', receivedAt: new Date(), replyCampaign: launch },
    { from: nz1, body: 'STOP', receivedAt: new Date(), replyCampaign: null },
    { from: au1, body: 'hello alpha', receivedAt: new Date(sydneyDayStart(daysAgo(40)).getTime() + 7_200_000), replyCampaign: null },
  ];
  await addInbound(account.accountId, inbound[0]!, toX);
  await addInbound(account.accountId, inbound[1]!, null, true);
  await addInbound(account.accountId, inbound[2]!, null);
  const optouts: Optout[] = [
    { number: nz1, createdAt: new Date() },
    { number: x, createdAt: new Date(sydneyDayStart(daysAgo(40)).getTime() + 60_000) },
  ];
  for (const o of optouts) await addOptout(account.accountId, o);
  return { account, facts, inbound, optouts, x, nz1, launch, spring };
}

function query(range: { from?: string; to?: string }, f: Filters): string {
  const params = new URLSearchParams({ ...(range.from ? { from: range.from } : {}), ...(range.to ? { to: range.to } : {}) });
  for (const [k, v] of Object.entries(f)) params.set(k, v);
  return params.toString();
}

describe('GET /report', () => {
  let w: World;
  beforeAll(async () => { w = await buildWorld(); });

  it('defaults to the 31 Sydney days ending today, unfiltered, and echoes the filters', async () => {
    const res = await call(t.app, w.account.apiKey, 'GET', '/report');
    expect(res.status).toBe(200);
    const range = { from: daysAgo(30), to: today() };
    expect(res.body).toEqual({
      account_id: w.account.accountId, from: range.from, to: range.to,
      summary: expected(w.facts, w.inbound, w.optouts, range, {}),
      filters: { direction: 'all', status: null, country: null, campaign_id: null, keyword: null, number: null },
    });
    // Hand-checked too, so the expectation function cannot drift with the code: 8 messages today (the old one is
    // outside), 9 parts (one of two), 5 sent, 3 delivered, 2 failed, 9 − 1 refunded = 8 credits, 2 inbound, 1 opt-out.
    expect(res.body.summary).toEqual({
      messages: { total: 8, parts: 9, sent: 5, delivered: 3, failed: 2 }, credits_consumed: 8, inbound: 2, optouts: 1,
    });
  });

  const cases: Array<[string, (w: World) => Filters]> = [
    ['direction=outbound', () => ({ direction: 'outbound' })],
    ['direction=inbound', () => ({ direction: 'inbound' })],
    ['direction=all', () => ({ direction: 'all' })],
    ['status=queued', () => ({ status: 'queued' })],
    ['status=sent', () => ({ status: 'sent' })],
    ['status=delivered', () => ({ status: 'delivered' })],
    ['status=failed', () => ({ status: 'failed' })],
    ['country=AU', () => ({ country: 'AU' })],
    ['country=NZ', () => ({ country: 'NZ' })],
    ['campaign_id (a batch)', (w) => ({ campaign_id: w.launch })],
    ['campaign_id (named singles)', (w) => ({ campaign_id: w.spring })],
    ['keyword, any case', () => ({ keyword: 'aLpHa' })],
    ['keyword with LIKE wildcards is literal', () => ({ keyword: '%' })],
    ['number (recipient, replier, opted out)', (w) => ({ number: w.x })],
    ['number NZ', (w) => ({ number: w.nz1 })],
    ['country and status together', () => ({ country: 'AU', status: 'delivered' })],
    ['direction=inbound with a keyword', () => ({ direction: 'inbound', keyword: 'alpha' })],
    ['direction=outbound with a number', (w) => ({ direction: 'outbound', number: w.x })],
  ];
  it.each(cases)('%s', async (_name, filtersOf) => {
    const f = filtersOf(w);
    const res = await call(t.app, w.account.apiKey, 'GET', `/report?${query({}, f)}`);
    expect(res.status).toBe(200);
    const want = expected(w.facts, w.inbound, w.optouts, { from: daysAgo(30), to: today() }, f);
    expect(res.body.summary).toEqual(want);
    expect(res.body.filters).toMatchObject({ direction: f.direction ?? 'all', ...f });
    // The dashboard's chart and its CSV (GET /report/daily) take the same filters: its days add up to the summary.
    const daily = await call(t.app, w.account.apiKey, 'GET', `/report/daily?${query({}, f)}`);
    expect(daily.status).toBe(200);
    const days = daily.body.days as Array<Record<'total' | 'sent' | 'delivered' | 'failed' | 'inbound', number>>;
    const sum = (k: keyof (typeof days)[number]) => days.reduce((n, d) => n + d[k], 0);
    expect({ total: sum('total'), sent: sum('sent'), delivered: sum('delivered'), failed: sum('failed'), inbound: sum('inbound') })
      .toEqual({ total: want.messages.total, sent: want.messages.sent, delivered: want.messages.delivered, failed: want.messages.failed, inbound: want.inbound });
  });

  it('counts an explicit range by Sydney days: the old day alone, and a range covering both', async () => {
    for (const range of [{ from: daysAgo(40), to: daysAgo(40) }, { from: daysAgo(45), to: today() }, { from: daysAgo(39), to: daysAgo(1) }]) {
      const res = await call(t.app, w.account.apiKey, 'GET', `/report?${query(range, {})}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ from: range.from, to: range.to, summary: expected(w.facts, w.inbound, w.optouts, range, {}) });
    }
    const old = await call(t.app, w.account.apiKey, 'GET', `/report?${query({ from: daysAgo(40), to: daysAgo(40) }, {})}`);
    expect(old.body.summary).toEqual({ messages: { total: 1, parts: 1, sent: 1, delivered: 1, failed: 0 }, credits_consumed: 1, inbound: 1, optouts: 1 });
  });

  it('takes `from` as 30 days before a lone `to`', async () => {
    const res = await call(t.app, w.account.apiKey, 'GET', `/report?to=${daysAgo(20)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: daysAgo(50), to: daysAgo(20) });
  });

  it('includes a message at the first instant of `from` and excludes one at the first instant after `to`', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: `edge ${i}` });
      ids.push(res.body.message_id as string);
    }
    const day = daysAgo(10);
    await moveMessage(ids[0]!, sydneyDayStart(day));
    await moveMessage(ids[1]!, new Date(sydneyDayEndExclusive(day).getTime() - 1));
    await moveMessage(ids[2]!, sydneyDayEndExclusive(day));
    const res = await call(t.app, a.apiKey, 'GET', `/report?from=${day}&to=${day}`);
    expect(res.body.summary).toMatchObject({ messages: { total: 2, parts: 2, sent: 0, delivered: 0, failed: 0 }, credits_consumed: 2 });
  });

  it('accepts a number given without + or with the + decoded as a space', async () => {
    for (const given of [w.x.slice(1), ` ${w.x.slice(1)}`]) {
      const res = await call(t.app, w.account.apiKey, 'GET', `/report?number=${encodeURIComponent(given)}`);
      expect(res.status).toBe(200);
      expect(res.body.filters).toMatchObject({ number: w.x });
      expect(res.body.summary).toEqual(expected(w.facts, w.inbound, w.optouts, { from: daysAgo(30), to: today() }, { number: w.x }));
    }
  });

  it('never counts another account\'s messages', async () => {
    const other = await createAccount(t.app);
    const res = await call(t.app, other.apiKey, 'GET', `/report?number=${encodeURIComponent(w.x)}`);
    expect(res.body.summary).toEqual({ messages: { total: 0, parts: 0, sent: 0, delivered: 0, failed: 0 }, credits_consumed: 0, inbound: 0, optouts: 0 });
  });

  it('allows 366 days (a leap year) and refuses 367', async () => {
    expect((await call(t.app, w.account.apiKey, 'GET', '/report?from=2024-01-01&to=2024-12-31')).status).toBe(200);
    const res = await call(t.app, w.account.apiKey, 'GET', '/report?from=2024-01-01&to=2025-01-01');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_range');
  });

  it.each([
    ['from=2025-02-30', 'validation_failed'],
    ['to=2025-13-01', 'validation_failed'],
    ['from=2025-1-01', 'validation_failed'],
    ['from=yesterday', 'validation_failed'],
    ['from=2025-03-02&to=2025-03-01', 'invalid_range'],
    ['direction=sideways', 'validation_failed'],
    ['status=bogus', 'validation_failed'],
    ['status=SENT', 'validation_failed'],
    ['country=US', 'validation_failed'],
    ['campaign_id=not-a-uuid', 'validation_failed'],
    ['number=abc', 'validation_failed'],
    ['keyword=', 'validation_failed'],
  ])('400 for %s', async (q, code) => {
    const res = await call(t.app, w.account.apiKey, 'GET', `/report?${q}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code, error: expect.any(String) });
  });
});

async function subAccount(parent: TestAccount, name: string, seed: number) {
  const created = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: name, seed_credits: seed });
  expect(created.status).toBe(201);
  const id = created.body.account_id as string;
  const key = await call(t.app, parent.apiKey, 'POST', `/account/${id}/key`, { name: 'test' });
  expect(key.status).toBe(201);
  return { accountId: id, apiKey: key.body.key as string, keyId: key.body.id as string };
}

async function sendWith(account: TestAccount, outcomes: Outcome[]) {
  for (const outcome of outcomes) {
    const res = await call(t.app, account.apiKey, 'POST', '/send', { to: mobile(), message: 'group report test' });
    expect(res.status).toBe(200);
    await setOutcome(res.body.message_id as string, outcome, account.accountId, 1);
  }
}

describe('GET /account/{id}/report', () => {
  it('gives the parent the sub-account\'s own report; transfers are not consumption', async () => {
    const parent = await createAccount(t.app, { credits: 50, hierarchy: true });
    const child = await subAccount(parent, 'Child Co', 10);
    await sendWith(child, ['delivered', 'failed_after_send', 'rejected']);
    const allocate = await call(t.app, parent.apiKey, 'POST', `/account/${child.accountId}/credits/allocate`, { amount: 3 });
    expect(allocate.status).toBe(200);
    const viaParent = await call(t.app, parent.apiKey, 'GET', `/account/${child.accountId}/report?status=sent`);
    expect(viaParent.status).toBe(200);
    expect(viaParent.body).toMatchObject({
      account_id: child.accountId,
      summary: { messages: { total: 2, parts: 2, sent: 2, delivered: 1, failed: 1 }, credits_consumed: 2, inbound: 0, optouts: 0 },
      filters: { status: 'sent' },
    });
    const unfiltered = await call(t.app, parent.apiKey, 'GET', `/account/${child.accountId}/report`);
    const own = await call(t.app, child.apiKey, 'GET', '/report');
    expect(own.status).toBe(200);
    expect(unfiltered.body).toEqual(own.body);
    expect((own.body.summary as { credits_consumed: number }).credits_consumed).toBe(2);
    // The parent's own report: the allocations it made are not consumption either.
    expect(((await call(t.app, parent.apiKey, 'GET', '/report')).body.summary as { credits_consumed: number }).credits_consumed).toBe(0);
  });

  it('is 404 to a stranger, 404 for the parent\'s own id, 403 without hierarchy', async () => {
    const parent = await createAccount(t.app, { credits: 20, hierarchy: true });
    const child = await subAccount(parent, 'Child Co', 0);
    const stranger = await createAccount(t.app, { hierarchy: true });
    const res = await call(t.app, stranger.apiKey, 'GET', `/account/${child.accountId}/report`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await call(t.app, child.apiKey, 'GET', `/account/${parent.accountId}/report`)).status).toBe(403);
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${parent.accountId}/report`)).status).toBe(404);
    const flat = await createAccount(t.app);
    const denied = await call(t.app, flat.apiKey, 'GET', `/account/${child.accountId}/report`);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('hierarchy_not_enabled');
  });

  it('still reports a closed sub-account to its parent', async () => {
    const parent = await createAccount(t.app, { credits: 20, hierarchy: true });
    const child = await subAccount(parent, 'Gone Co', 5);
    await sendWith(child, ['delivered']);
    expect((await call(t.app, parent.apiKey, 'DELETE', `/account/${child.accountId}`)).status).toBe(200);
    const res = await call(t.app, parent.apiKey, 'GET', `/account/${child.accountId}/report`);
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({ messages: { total: 1, delivered: 1 }, credits_consumed: 1 });
  });
});

describe('GET /report/group', () => {
  it('lists the parent first, then each sub-account (closed too), with a grand total', async () => {
    const parent = await createAccount(t.app, { credits: 60, hierarchy: true, name: 'Parent Pty' });
    const one = await subAccount(parent, 'One Co', 10);
    const two = await subAccount(parent, 'Two Co', 10);
    const three = await subAccount(parent, 'Three Co', 5);
    await sendWith(parent, ['delivered', 'queued']);
    await sendWith(one, ['delivered', 'delivered', 'failed_after_send', 'sent']);
    await sendWith(two, ['queued']);
    await sendWith(three, ['rejected', 'delivered']);
    expect((await call(t.app, parent.apiKey, 'DELETE', `/account/${three.accountId}`)).status).toBe(200);
    const stranger = await createAccount(t.app, { hierarchy: true });
    await sendWith(stranger, ['delivered']);
    await addInbound(one.accountId, { from: mobile(), body: 'hi', receivedAt: new Date(), replyCampaign: null }, null);
    await addOptout(two.accountId, { number: mobile(), createdAt: new Date() });

    const res = await call(t.app, parent.apiKey, 'GET', '/report/group');
    expect(res.status).toBe(200);
    // Each row also carries messages, inbound and optouts (the client libraries' group report rows); they add up
    // to the grand total.
    type Row = { messages: Record<string, number>; inbound: number; optouts: number };
    const rowsOf = res.body.accounts as Row[];
    const total = res.body.grand_total as Row;
    expect(rowsOf.reduce((n, r) => n + r.inbound, 0)).toBe(total.inbound);
    expect(rowsOf.reduce((n, r) => n + r.optouts, 0)).toBe(total.optouts);
    for (const k of ['total', 'parts', 'sent', 'delivered', 'failed']) {
      expect(rowsOf.reduce((n, r) => n + r.messages[k]!, 0)).toBe(total.messages[k]);
    }
    expect(rowsOf[1]).toMatchObject({ messages: { total: 4, sent: 4, delivered: 2, failed: 1 }, inbound: 1 });
    expect(res.body).toEqual({
      from: daysAgo(30), to: today(),
      accounts: [
        { account_id: parent.accountId, business_name: 'Parent Pty', credits_consumed: 2, delivery_rate: 1, messages: expect.any(Object), inbound: expect.any(Number), optouts: expect.any(Number) },
        { account_id: one.accountId, business_name: 'One Co', credits_consumed: 4, delivery_rate: 2 / 3, messages: expect.any(Object), inbound: expect.any(Number), optouts: expect.any(Number) },
        { account_id: two.accountId, business_name: 'Two Co', credits_consumed: 1, delivery_rate: 0, messages: expect.any(Object), inbound: expect.any(Number), optouts: expect.any(Number) },
        { account_id: three.accountId, business_name: 'Three Co', credits_consumed: 1, delivery_rate: 0.5, messages: expect.any(Object), inbound: expect.any(Number), optouts: expect.any(Number) },
      ],
      grand_total: {
        credits_consumed: 8, inbound: 1, optouts: 1,
        messages: { total: 9, parts: 9, sent: 6, delivered: 4, failed: 2 },
      },
    });
    // The same definitions as the per-account report.
    const oneReport = await call(t.app, parent.apiKey, 'GET', `/account/${one.accountId}/report`);
    expect(oneReport.body.summary).toMatchObject({ credits_consumed: 4, inbound: 1, messages: { total: 4, sent: 4, delivered: 2, failed: 1 } });
  });

  it('is 403 without hierarchy and 400 for a bad range', async () => {
    const flat = await createAccount(t.app);
    const res = await call(t.app, flat.apiKey, 'GET', '/report/group');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('hierarchy_not_enabled');
    const parent = await createAccount(t.app, { hierarchy: true });
    expect((await call(t.app, parent.apiKey, 'GET', '/report/group?from=2025-02-30')).body.code).toBe('validation_failed');
    expect((await call(t.app, parent.apiKey, 'GET', '/report/group?from=2025-03-02&to=2025-03-01')).body.code).toBe('invalid_range');
  });
});
