// Working the inbox: unread per inbound message, marked read only by an explicit call (never by GET /inbox, which
// the client libraries poll), unread_total, and the conversation with one number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile, type TestAccount } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

type Item = { id: string; from: string; unread: boolean };

async function accountWithNumber(): Promise<{ account: TestAccount; number: string }> {
  const account = await createAccount(t.app, { credits: 20 });
  const number = mobile();
  expect((await admin(t.app, 'POST', '/admin/numbers', { number, country: 'AU', account_id: account.accountId })).status).toBe(201);
  return { account, number };
}

const receive = async (from: string, to: string, text: string, at = new Date()) =>
  (await t.services.inbox.receive({ from, to, text, receivedAt: at }))!.id;

describe('unread inbound messages', () => {
  it('arrive unread and stay unread however often the inbox is listed', async () => {
    const { account, number } = await accountWithNumber();
    const id = await receive(mobile(), number, 'Is 3pm free?');
    for (let i = 0; i < 2; i += 1) {
      const inbox = await call(t.app, account.apiKey, 'GET', '/inbox');
      expect(inbox.body).toMatchObject({ total: 1, unread_total: 1, messages: [{ id, unread: true }] });
    }
  });

  it('lists only unread ones with unread=true, and counts every unread one in unread_total whatever the filters', async () => {
    const { account, number } = await accountWithNumber();
    const first = await receive(mobile(), number, 'one');
    const second = await receive(mobile(), number, 'two');
    const read = await call(t.app, account.apiKey, 'POST', `/inbox/${first}/read`);
    expect(read).toMatchObject({ status: 200, body: { ok: true, marked: 1, unread_total: 1 } });
    const unread = await call(t.app, account.apiKey, 'GET', '/inbox?unread=true');
    expect((unread.body.messages as Item[]).map((m) => m.id)).toEqual([second]);
    expect(unread.body).toMatchObject({ total: 1, unread_total: 1 });
    const all = await call(t.app, account.apiKey, 'GET', '/inbox?unread=false');
    expect((all.body.messages as Item[]).map((m) => [m.id, m.unread])).toEqual([[second, true], [first, false]]);
    const filtered = await call(t.app, account.apiKey, 'GET', `/inbox?from=${encodeURIComponent('+61499')}`);
    expect(filtered.body).toMatchObject({ total: 0, unread_total: 1 });
  });

  it('marks read once: a repeat changes nothing, and another account\'s message is not found', async () => {
    const { account, number } = await accountWithNumber();
    const id = await receive(mobile(), number, 'thanks');
    expect((await call(t.app, account.apiKey, 'POST', `/inbox/${id}/read`)).body).toEqual({ ok: true, marked: 1, unread_total: 0 });
    expect((await call(t.app, account.apiKey, 'POST', `/inbox/${id}/read`)).body).toEqual({ ok: true, marked: 0, unread_total: 0 });
    const stranger = await createAccount(t.app);
    const theirs = await call(t.app, stranger.apiKey, 'POST', `/inbox/${id}/read`);
    expect(theirs).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const readOnly = await admin(t.app, 'POST', `/admin/accounts/${account.accountId}/keys`, { name: 'viewer', scopes: ['read'] });
    const refused = await call(t.app, readOnly.body.key as string, 'POST', `/inbox/${id}/read`);
    expect(refused).toMatchObject({ status: 403, body: { code: 'insufficient_scope', required_scope: 'send' } });
  });
});

describe('a conversation with one number', () => {
  it('shows both directions in time order with the contact\'s name, and reading it marks nothing', async () => {
    const { account, number } = await accountWithNumber();
    const person = mobile();
    const other = mobile();
    const sent = await call(t.app, account.apiKey, 'POST', '/send', { to: person, message: 'Your table for 2 at 7pm?', sender: number, metadata: { name: 'Ana' } });
    expect(sent.status).toBe(200);
    const later = (s: number) => new Date(Date.now() + s * 1000);
    const yes = await receive(person, number, 'Yes please', later(1));
    const veg = await receive(person, number, 'One vegetarian', later(2));
    await receive(other, number, 'Not this one', later(3));

    const path = `/conversations/${encodeURIComponent(person)}`;
    const convo = await call(t.app, account.apiKey, 'GET', path);
    expect(convo.status).toBe(200);
    expect(convo.body).toMatchObject({ number: person, name: 'Ana', unread: 2 });
    expect((convo.body.messages as Array<Record<string, unknown>>).map((m) => [m.direction, m.body, m.unread])).toEqual([
      ['outbound', 'Your table for 2 at 7pm?', false], ['inbound', 'Yes please', true], ['inbound', 'One vegetarian', true],
    ]);
    expect((convo.body.messages as Array<{ id: string }>).map((m) => m.id)).toEqual([sent.body.message_id, yes, veg]);
    expect((await call(t.app, account.apiKey, 'GET', `${path}?limit=2`)).body.messages).toHaveLength(2);
    expect((await call(t.app, account.apiKey, 'GET', '/inbox')).body.unread_total).toBe(3);

    const read = await call(t.app, account.apiKey, 'POST', `${path}/read`);
    expect(read.body).toEqual({ ok: true, marked: 2, unread_total: 1 });
    expect((await call(t.app, account.apiKey, 'GET', path)).body.unread).toBe(0);
    // Another account sees nothing of it.
    const stranger = await createAccount(t.app);
    expect((await call(t.app, stranger.apiKey, 'GET', path)).body).toMatchObject({ name: null, unread: 0, messages: [] });
  });

  it('names the number after its contact when the account has one', async () => {
    const { account, number } = await accountWithNumber();
    const person = mobile();
    await receive(person, number, 'Hello?');
    expect((await call(t.app, account.apiKey, 'POST', '/contacts', { phone: person, first_name: 'Ben', last_name: 'Ng' })).status).toBeLessThan(300);
    expect((await call(t.app, account.apiKey, 'GET', `/conversations/${encodeURIComponent(person)}`)).body).toMatchObject({ name: 'Ben Ng', unread: 1 });
  });

  it('refuses a number that is not E.164', async () => {
    const { account } = await accountWithNumber();
    expect((await call(t.app, account.apiKey, 'GET', '/conversations/0412345678')).body.code).toBe('validation_failed');
  });
});
