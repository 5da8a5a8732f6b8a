// What the official client libraries expect beyond the interface document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const SHARED_AU = '+61480000000';
type Json = Record<string, unknown>;

describe('GET /message/{id} by Idempotency-Key', () => {
  it('finds the message a /send with that key created; unknown keys and other accounts\' keys are 404', async () => {
    const a = await createAccount(t.app);
    for (const key of [`order-${randomUUID().slice(0, 8)}`, randomUUID()]) {
      const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'Hi' }, { 'idempotency-key': key });
      expect(sent.status).toBe(200);
      const byKey = await call(t.app, a.apiKey, 'GET', `/message/${encodeURIComponent(key)}`);
      expect(byKey.status).toBe(200);
      expect((byKey.body.message as Json).id).toBe(sent.body.message_id);
      expect(byKey.body).toEqual((await call(t.app, a.apiKey, 'GET', `/message/${String(sent.body.message_id)}`)).body);
      const other = await createAccount(t.app);
      expect((await call(t.app, other.apiKey, 'GET', `/message/${encodeURIComponent(key)}`)).status).toBe(404);
    }
    const unknown = await call(t.app, a.apiKey, 'GET', '/message/no-such-key');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
  });
});

describe('{{SendingNumber}}', () => {
  it('is the sender on /send: the shared number by default, the dedicated number when there is one, charged after merging', async () => {
    const a = await createAccount(t.app, { credits: 20 });
    const shared = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'Reply to {{SendingNumber}}' });
    expect(shared.status).toBe(200);
    const m1 = (await call(t.app, a.apiKey, 'GET', `/message/${String(shared.body.message_id)}`)).body.message as Json;
    expect(m1).toMatchObject({ body: `Reply to ${SHARED_AU}`, sender: SHARED_AU });

    const own = mobile();
    expect((await admin(t.app, 'POST', '/admin/numbers', { number: own, country: 'AU', account_id: a.accountId })).status).toBe(201);
    const dedicated = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: '{{SendingNumber}} {{OptOutLink}}' });
    const m2 = (await call(t.app, a.apiKey, 'GET', `/message/${String(dedicated.body.message_id)}`)).body.message as Json;
    expect(m2.sender).toBe(own);
    expect(String(m2.body).startsWith(`${own} http`)).toBe(true);

    // Counted after merging: 163 characters of template are 158 once the number is in, one part.
    const long = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: `${'x'.repeat(145)} {{SendingNumber}}` });
    expect(long.body.credits_used).toBe(1);
  });

  it('is the sender in a batch, for plain-string recipients and merge_data ones alike', async () => {
    const a = await createAccount(t.app, { credits: 20 });
    const [r1, r2] = [mobile(), mobile()];
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', {
      recipients: [r1, { phone: r2, merge_data: { name: 'Ana', SendingNumber: 'spoofed' } }],
      message: 'Hi {{name}}, text {{SendingNumber}}', link_tracking: true,
    });
    expect(res.status).toBe(200);
    const campaign = await call(t.app, a.apiKey, 'GET', `/campaign/${String(res.body.campaign_id)}`);
    const bodies = (campaign.body.messages as Json[]).map((m) => [m.recipient, m.body]).sort();
    expect(bodies).toEqual([[r1, `Hi , text ${SHARED_AU}`], [r2, `Hi Ana, text ${SHARED_AU}`]].sort());
  });
});

describe('fields the libraries\' types expect', () => {
  it('account detail: sending_number and default_sender_id_value', async () => {
    const parent = await createAccount(t.app, { hierarchy: true, credits: 10, abn: '51824753556' });
    // Another business's Sender ID under the ABN the child declares: the child may not send as it, so it is not
    // the child's default either.
    const other = await createAccount(t.app);
    const othersId = `Oth${randomUUID().slice(0, 6)}`.replace(/[^A-Za-z0-9]/g, 'x');
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { account_id: other.accountId, sender_id: othersId, abn: '51824753556' })).status).toBe(201);
    const child = await call(t.app, parent.apiKey, 'POST', '/accounts', { business_name: 'Kid Co', abn: '51824753556' });
    expect(child.status).toBe(201);
    const id = child.body.id as string;
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${id}`)).body.account).toMatchObject({ sending_number: null, default_sender_id_value: null });
    const own = mobile();
    expect((await admin(t.app, 'POST', '/admin/numbers', { number: own, country: 'AU', account_id: id })).status).toBe(201);
    const senderId = `Kid${randomUUID().slice(0, 6)}`.replace(/[^A-Za-z0-9]/g, 'x');
    expect((await admin(t.app, 'POST', '/admin/sender-ids', { account_id: id, sender_id: senderId, abn: '51824753556' })).status).toBe(201);
    expect((await call(t.app, parent.apiKey, 'GET', `/account/${id}`)).body.account).toMatchObject({ sending_number: own, default_sender_id_value: senderId });
  });

  it('inbox items: status received and the campaign of the message replied to', async () => {
    const a = await createAccount(t.app);
    const customer = mobile();
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: customer, message: 'Reply?', campaign: 'Spring' });
    expect(sent.status).toBe(200);
    await t.services.inbox.receive({ from: customer, to: SHARED_AU, text: 'Yes', receivedAt: new Date() });
    const inbox = await call(t.app, a.apiKey, 'GET', '/inbox');
    const campaignId = ((await call(t.app, a.apiKey, 'GET', `/message/${String(sent.body.message_id)}`)).body.message as Json).campaign_id;
    expect(campaignId).toEqual(expect.any(String));
    expect(inbox.body.messages).toEqual([expect.objectContaining({ from: customer, status: 'received', campaign_id: campaignId, in_reply_to: sent.body.message_id })]);
  });
});
