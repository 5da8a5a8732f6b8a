// A Sender ID is usable only by the accounts the operator registered it for. A self-declared
// ABN (a parent creating or editing a sub-account) never grants one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomInt, randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const abn = () => String(randomInt(1e10, 1e11 - 1));
const senderName = () => `B${randomUUID().replace(/-/g, '').slice(0, 8)}`;
const send = (key: string, sender: string) => call(t.app, key, 'POST', '/send', { to: mobile(), message: 'Your account is locked', sender });
const batch = (key: string, sender: string) => call(t.app, key, 'POST', '/send-batch', { recipients: [mobile()], message: 'x', sender });

async function subAccount(parentKey: string, body: object) {
  const created = await call(t.app, parentKey, 'POST', '/accounts', { business_name: 'Sub', seed_credits: 10, ...body });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const key = await call(t.app, parentKey, 'POST', `/account/${id}/key`, { name: 'k' });
  return { id, key: key.body.key as string };
}

describe('Sender ID registration', () => {
  it('a sub-account given a bank\'s ABN by its parent cannot send as the bank, on create or on PATCH', async () => {
    const bankAbn = abn();
    const bankSender = senderName();
    const bank = await createAccount(t.app, { abn: bankAbn });
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: bankSender, abn: bankAbn })).status).toBe(201);
    expect((await send(bank.apiKey, bankSender)).status).toBe(200);

    const attacker = await createAccount(t.app, { hierarchy: true, credits: 50 });
    const forged = await subAccount(attacker.apiKey, { abn: bankAbn });
    for (const res of [await send(forged.key, bankSender), await batch(forged.key, bankSender)]) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('sender_not_allowed');
    }
    const later = await subAccount(attacker.apiKey, {});
    expect((await call(t.app, attacker.apiKey, 'PATCH', `/account/${later.id}`, { abn: bankAbn, inherit_parent_senders: true })).status).toBe(200);
    expect((await send(later.key, bankSender)).body.code).toBe('sender_not_allowed');
    expect((await call(t.app, forged.key, 'GET', '/balance')).body.credits).toBe(10);
  });

  it('a registration to an account grants it, its inheriting sub-accounts, and every account it was also registered to', async () => {
    const sharedAbn = abn();
    const name = senderName();
    const owner = await createAccount(t.app, { hierarchy: true, credits: 50 });
    const second = await createAccount(t.app);
    const stranger = await createAccount(t.app, { abn: sharedAbn });
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: name, abn: sharedAbn, account_id: owner.accountId })).status).toBe(201);
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: name, abn: sharedAbn, account_id: second.accountId })).status).toBe(201);
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: name, abn: sharedAbn, account_id: second.accountId })).status).toBe(409);

    expect((await send(owner.apiKey, name)).status).toBe(200);
    expect((await send(second.apiKey, name)).status).toBe(200);
    // Registered to accounts, not to the ABN: an account holding the ABN is not one of them.
    expect((await send(stranger.apiKey, name)).body.code).toBe('sender_not_allowed');

    const plain = await subAccount(owner.apiKey, {});
    expect((await send(plain.key, name)).body.code).toBe('sender_not_allowed');
    const inheriting = await subAccount(owner.apiKey, { inherit_parent_senders: true });
    expect((await send(inheriting.key, name)).status).toBe(200);
    expect((await batch(inheriting.key, name)).status).toBe(200);
  });

  it('the operator setting a sub-account\'s ABN is proof: then its ABN\'s Sender IDs apply', async () => {
    const bankAbn = abn();
    const name = senderName();
    await admin(t.app, 'POST', '/admin/sender-ids', { sender_id: name, abn: bankAbn });
    const parent = await createAccount(t.app, { hierarchy: true, credits: 50 });
    const sub = await subAccount(parent.apiKey, { abn: bankAbn });
    expect((await send(sub.key, name)).body.code).toBe('sender_not_allowed');
    expect((await admin(t.app, 'PATCH', `/admin/accounts/${sub.id}`, { abn: bankAbn })).status).toBe(200);
    expect((await send(sub.key, name)).status).toBe(200);
    // The parent changing it again withdraws the proof.
    await call(t.app, parent.apiKey, 'PATCH', `/account/${sub.id}`, { abn: bankAbn });
    expect((await send(sub.key, name)).body.code).toBe('sender_not_allowed');
  });
});
