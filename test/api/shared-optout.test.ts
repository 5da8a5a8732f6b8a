// A STOP (or link opt-out) on a shared number protects the person from every account that
// messaged them from it within 30 days, whoever the reply is routed to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile, type TestAccount } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const SHARED_AU = '+61480000000';
const optedOut = async (a: TestAccount) => ((await call(t.app, a.apiKey, 'GET', '/optouts')).body.optouts as Array<{ number: string }>).map((o) => o.number);
const inboundEvents = async (a: TestAccount) => (await rows<{ body: string }>(t.services.db, sql`
  select body from webhook_deliveries where account_id = ${a.accountId} and event = 'message.inbound'`)).map((r) => JSON.parse(r.body) as Record<string, unknown>);
const hook = (a: TestAccount) => t.services.db.execute(sql`
  insert into webhook_endpoints (account_id, kind, url) values (${a.accountId}, 'inbound', 'https://example.com/hook')`);

describe('an opt-out on a shared number', () => {
  it('a STOP opts the person out for every account that messaged them from it within 30 days, each with its webhook', async () => {
    const [first, second, stale, own] = await Promise.all([createAccount(t.app), createAccount(t.app), createAccount(t.app), createAccount(t.app)]);
    await Promise.all([first, second, stale].map(hook));
    const person = mobile();
    const fromFirst = await call(t.app, first.apiKey, 'POST', '/send', { to: person, message: 'from the first' });
    const old = await call(t.app, stale.apiKey, 'POST', '/send', { to: person, message: 'long ago' });
    await t.services.db.execute(sql`update messages set created_at = now() - interval '31 days' where id = ${String(old.body.message_id)}`);
    const number = mobile();
    await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: own.accountId });
    await call(t.app, own.apiKey, 'POST', '/send', { to: person, message: 'from a dedicated number' });
    await call(t.app, second.apiKey, 'POST', '/send', { to: person, message: 'from the second, last' });

    const row = await t.services.inbox.receive({ from: person, to: SHARED_AU, text: 'STOP', receivedAt: new Date() });
    expect(row).toMatchObject({ accountId: second.accountId, isOptout: true });

    expect(await optedOut(first)).toEqual([person]);
    expect(await optedOut(second)).toEqual([person]);
    expect(await optedOut(stale)).toEqual([]);
    expect(await optedOut(own)).toEqual([]);
    const [firstEvent] = await inboundEvents(first);
    expect(firstEvent).toMatchObject({ event: 'message.inbound', from: person, to: SHARED_AU, body: 'STOP', is_optout: true, in_reply_to: fromFirst.body.message_id });
    expect((await inboundEvents(second))).toEqual([expect.objectContaining({ is_optout: true, message_id: row!.id })]);
    expect(await inboundEvents(stale)).toEqual([]);
    // Each account finds the event's message in its own inbox; a later send to the person is refused for both.
    const inbox = (await call(t.app, first.apiKey, 'GET', '/inbox')).body;
    expect((inbox.messages as Array<{ id: string }>).map((m) => m.id)).toEqual([firstEvent!.message_id]);
    for (const a of [first, second]) {
      expect((await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'again' })).body.code).toBe('recipient_opted_out');
    }
  });

  it('any other reply still goes only to the account that messaged last', async () => {
    const [first, second] = await Promise.all([createAccount(t.app), createAccount(t.app)]);
    const person = mobile();
    await call(t.app, first.apiKey, 'POST', '/send', { to: person, message: 'one' });
    await call(t.app, second.apiKey, 'POST', '/send', { to: person, message: 'two' });
    await t.services.inbox.receive({ from: person, to: SHARED_AU, text: 'thanks', receivedAt: new Date() });
    expect((await call(t.app, first.apiKey, 'GET', '/inbox')).body.total).toBe(0);
    expect((await call(t.app, second.apiKey, 'GET', '/inbox')).body.total).toBe(1);
  });

  it('a link opt-out in a message from the shared number reaches every recent sender too', async () => {
    const [first, second] = await Promise.all([createAccount(t.app), createAccount(t.app)]);
    const person = mobile();
    await call(t.app, second.apiKey, 'POST', '/send', { to: person, message: 'two' });
    const sent = await call(t.app, first.apiKey, 'POST', '/send', { to: person, message: 'Opt out: {{OptOutLink}}' });
    const body = ((await call(t.app, first.apiKey, 'GET', `/message/${String(sent.body.message_id)}`)).body.message as { body: string }).body;
    const code = body.slice(body.lastIndexOf('/') + 1);
    expect(await t.services.optoutLink.confirm(code)).not.toBeNull();
    expect(await optedOut(first)).toEqual([person]);
    expect(await optedOut(second)).toEqual([person]);
  });
});
