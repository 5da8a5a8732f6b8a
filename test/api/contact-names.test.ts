// Contact names are joined when read: the inbox, the message list and the opt-out list show the name of the account's
// contact with the number, never a copy, so a rename shows at once and another account's contact never does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const SHARED_AU = '+61480000000';
type Json = Record<string, unknown>;

async function names(key: string, person: string, messageId: string) {
  // GET /message/{id} is the message.dlr body field for field, which carries no name.
  const message = await call(t.app, key, 'GET', `/message/${messageId}`);
  const list = await call(t.app, key, 'GET', `/messages?to=${encodeURIComponent(person)}`);
  const inbox = await call(t.app, key, 'GET', '/inbox');
  const optouts = await call(t.app, key, 'GET', '/optouts');
  return {
    message: 'contact_name' in (message.body.message as Json),
    list: (list.body.messages as Json[]).map((m) => m.contact_name),
    inbox: (inbox.body.messages as Json[]).map((m) => m.contact_name),
    optouts: (optouts.body.optouts as Json[]).map((o) => o.contact_name),
  };
}

describe('contact names in reads', () => {
  it('shows the account\'s contact name in messages, the inbox and opt-outs, as it is now', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    const person = mobile();
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'Your table is ready' });
    await t.services.inbox.receive({ from: person, to: SHARED_AU, text: 'STOP', receivedAt: new Date() });
    const messageId = sent.body.message_id as string;
    expect(await names(a.apiKey, person, messageId)).toEqual({ message: false, list: [null], inbox: [null], optouts: [null] });

    // Another account's contact for the number is not this account's.
    await call(t.app, b.apiKey, 'POST', '/contacts', { phone: person, first_name: 'Someone', last_name: 'Else' });
    expect(await names(a.apiKey, person, messageId)).toEqual({ message: false, list: [null], inbox: [null], optouts: [null] });

    const contact = await call(t.app, a.apiKey, 'POST', '/contacts', { phone: person, first_name: 'Ana', last_name: 'Silva' });
    expect(await names(a.apiKey, person, messageId)).toEqual({ message: false, list: ['Ana Silva'], inbox: ['Ana Silva'], optouts: ['Ana Silva'] });

    await call(t.app, a.apiKey, 'PATCH', `/contacts/${contact.body.id as string}`, { first_name: null, last_name: 'Costa' });
    expect(await names(a.apiKey, person, messageId)).toEqual({ message: false, list: ['Costa'], inbox: ['Costa'], optouts: ['Costa'] });

    await call(t.app, a.apiKey, 'DELETE', `/contacts/${contact.body.id as string}`);
    expect(await names(a.apiKey, person, messageId)).toEqual({ message: false, list: [null], inbox: [null], optouts: [null] });
  });

  it('a contact without a name reads as null', async () => {
    const a = await createAccount(t.app);
    const person = mobile();
    await call(t.app, a.apiKey, 'POST', '/contacts', { phone: person, first_name: '  ' });
    const added = await call(t.app, a.apiKey, 'POST', '/optouts', { number: person });
    expect((added.body.optout as Json).contact_name).toBeNull();
  });
});
