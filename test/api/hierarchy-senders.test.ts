// What the hierarchy changes on the send path: inherited senders, the daily cap, opt-out exemption.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomInt, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';
import { rows } from '../../src/platform/db/client.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const abn = () => String(randomInt(1e10, 1e11 - 1)).padStart(11, '1');
const senderName = () => `S${randomUUID().replace(/-/g, '').slice(0, 8)}`;

async function family(opts: { parentAbn?: string; child?: object; parentCredits?: number } = {}) {
  const parent = await createAccount(t.app, { credits: opts.parentCredits ?? 100, hierarchy: true, ...(opts.parentAbn ? { abn: opts.parentAbn } : {}) });
  const created = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Child', seed_credits: 20, ...opts.child });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const childId = created.body.id as string;
  const key = await call(t.app, parent.apiKey, 'POST', `/account/${childId}/key`, { name: 'k' });
  return { parent, childId, childKey: key.body.key as string };
}

async function senderOf(key: string, messageId: unknown) {
  const got = await call(t.app, key, 'GET', `/message/${messageId}`);
  return (got.body.message as { sender: string }).sender;
}

const setInherit = (parentKey: string, childId: string, on: boolean) =>
  call(t.app, parentKey, 'PATCH', `/account/${childId}`, { inherit_parent_senders: on });

describe('sender inheritance', () => {
  it('the parent\'s Sender ID (by the parent\'s ABN) only with inherit_parent_senders, on /send and /send-batch', async () => {
    const parentAbn = abn();
    const name = senderName();
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: name, abn: parentAbn })).status).toBe(201);
    const { parent, childId, childKey } = await family({ parentAbn, child: { abn: abn() } });
    expect((await call(t.app, parent.apiKey, 'POST', '/send', { to: mobile(), message: 'x', sender: name })).status).toBe(200);

    const off = await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x', sender: name });
    expect(off.status).toBe(400);
    expect(off.body.code).toBe('sender_not_allowed');
    expect((await call(t.app, childKey, 'POST', '/send-batch', { recipients: [mobile()], message: 'x', sender: name })).body.code).toBe('sender_not_allowed');
    expect((await call(t.app, childKey, 'GET', '/balance')).body.credits).toBe(20);

    expect((await setInherit(parent.apiKey, childId, true)).status).toBe(200);
    const on = await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x', sender: name });
    expect(on.status).toBe(200);
    expect(await senderOf(childKey, on.body.message_id)).toBe(name);
    expect((await call(t.app, childKey, 'POST', '/send-batch', { recipients: [mobile()], message: 'x', from: name })).status).toBe(200);

    await setInherit(parent.apiKey, childId, false);
    expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x', sender: name })).body.code).toBe('sender_not_allowed');
  });

  it('an ABN mismatch is refused even with inheritance; the parent never inherits from its sub-account', async () => {
    const parentAbn = abn();
    const childAbn = abn();
    const foreign = senderName();
    const childs = senderName();
    await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: foreign, abn: abn() });
    const { parent, childId, childKey } = await family({ parentAbn, child: { abn: childAbn, inherit_parent_senders: true } });
    // The operator registers it to the sub-account itself: its own ABN, declared by the parent, would not do.
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: childs, abn: childAbn, account_id: childId })).status).toBe(201);
    const refused = await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x', sender: foreign });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('sender_not_allowed');
    expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x', sender: childs })).status).toBe(200);
    expect((await call(t.app, parent.apiKey, 'POST', '/send', { to: mobile(), message: 'x', sender: childs })).body.code).toBe('sender_not_allowed');
  });

  it('a sub-account created without an ABN takes the parent\'s, but the parent\'s Sender IDs only with inheritance', async () => {
    const parentAbn = abn();
    const name = senderName();
    await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: name, abn: parentAbn });
    const { parent, childId, childKey } = await family({ parentAbn });
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${childId}`)).body.account).toMatchObject({ abn: parentAbn });
    expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x', sender: name })).body.code).toBe('sender_not_allowed');
    await setInherit(parent.apiKey, childId, true);
    expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x', sender: name })).status).toBe(200);
  });

  it('the parent\'s dedicated number only with inheritance; it never becomes the sub-account\'s default', async () => {
    const { parent, childId, childKey } = await family();
    const number = mobile();
    await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: parent.accountId });
    const off = await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x', sender: number });
    expect(off.body.code).toBe('sender_not_allowed');
    await setInherit(parent.apiKey, childId, true);
    const on = await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x', from: number });
    expect(on.status).toBe(200);
    expect(await senderOf(childKey, on.body.message_id)).toBe(number);
    const plain = await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x' });
    expect(await senderOf(childKey, plain.body.message_id)).toBe(t.config.sharedSender.AU);
  });
});

describe('daily limit', () => {
  it('the limit-th message is accepted, the next is 429 daily_limit_exceeded and costs nothing', async () => {
    const { parent, childId, childKey } = await family({ child: { daily_limit: 3 } });
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${childId}`)).body.account).toMatchObject({ daily_send_limit: 3 });
    for (let i = 0; i < 3; i++) {
      expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: `m${i}` })).status).toBe(200);
    }
    const over = await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'one too many' });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('daily_limit_exceeded');
    expect((await call(t.app, childKey, 'GET', '/balance')).body.credits).toBe(17);
    // The parent raises it: sending resumes at once.
    await call(t.app, parent.apiKey, 'PATCH', `/account/${childId}`, { daily_limit: 4 });
    expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'fourth' })).status).toBe(200);
    expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'fifth' })).status).toBe(429);
  });

  it('a batch crossing the limit is refused whole; one that lands exactly on it is accepted', async () => {
    const { childId, childKey } = await family({ child: { daily_limit: 3 } });
    expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'first' })).status).toBe(200);
    const crossing = await call(t.app, childKey, 'POST', '/send-batch', { recipients: [mobile(), mobile(), mobile()], message: 'x' });
    expect(crossing.status).toBe(429);
    expect(crossing.body.code).toBe('daily_limit_exceeded');
    const [before] = await rows<{ n: number }>(t.services.db, sql`select count(*)::int as n from messages where account_id = ${childId}`);
    expect(before!.n).toBe(1);
    const exact = await call(t.app, childKey, 'POST', '/send-batch', { recipients: [mobile(), mobile()], message: 'x' });
    expect(exact.status).toBe(200);
    expect(exact.body.recipients_queued).toBe(2);
    expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x' })).status).toBe(429);
    expect((await call(t.app, childKey, 'GET', '/balance')).body.credits).toBe(17);
  });

  it('daily_limit 0 stops sending; null removes the cap', async () => {
    const { parent, childId, childKey } = await family({ child: { daily_limit: 0 } });
    expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x' })).status).toBe(429);
    await call(t.app, parent.apiKey, 'PATCH', `/account/${childId}`, { daily_limit: null });
    expect((await call(t.app, childKey, 'POST', '/send', { to: mobile(), message: 'x' })).status).toBe(200);
  });
});

describe('optout_exempt', () => {
  it('lets the sub-account send to numbers on its opt-out list; without it the send is refused', async () => {
    const { parent, childId, childKey } = await family();
    const to = mobile();
    await t.services.db.execute(sql`insert into optouts (account_id, number, source) values (${childId}, ${to}, 'api')`);
    expect((await call(t.app, childKey, 'POST', '/send', { to, message: 'x' })).body.code).toBe('recipient_opted_out');
    await call(t.app, parent.apiKey, 'PATCH', `/account/${childId}`, { optout_exempt: true });
    expect((await call(t.app, childKey, 'POST', '/send', { to, message: 'x' })).status).toBe(200);
  });
});
