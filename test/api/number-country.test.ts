import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, createAccount } from '../support/factories.ts';

// Local numbers are read in the account's country, never guessed across the Tasman (docs/api-contract.md,
// "Sending"): 02 9999 1234 is a Sydney landline to an Australian account and a mobile to a New Zealand one.

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const nzAccount = async () => {
  const a = await createAccount(t.app, { credits: 20 });
  const set = await call(t.app, a.apiKey, 'PUT', '/settings', { country: 'NZ' });
  expect(set.status).toBe(200);
  expect(set.body.settings).toMatchObject({ country: 'NZ' });
  return a;
};

describe('the account\'s country', () => {
  it('is AU by default: a Sydney landline written locally is refused with the reason, and nothing is charged', async () => {
    const a = await createAccount(t.app);
    expect((await call(t.app, a.apiKey, 'GET', '/settings')).body.settings).toMatchObject({ country: 'AU' });
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: '02 9999 1234', message: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'invalid_number',
      error: '"02 9999 1234" is an Australian landline, not a mobile (for the New Zealand mobile, write +64 29 999 1234)',
    });
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body.credits).toBe(5);
    const local = await call(t.app, a.apiKey, 'POST', '/send', { to: '0412 345 678', message: 'x' });
    expect(local.body).toMatchObject({ recipient: '+61412345678', credits_used: 1 });
  });

  it('reads local numbers as New Zealand once set, and says which number it used', async () => {
    const a = await nzAccount();
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: '02 9999 1234', message: 'Kia ora' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ recipient: '+64299991234', credits_used: 1, segments: 1 });
    const got = await call(t.app, a.apiKey, 'GET', `/message/${res.body.message_id as string}`);
    expect(got.body.message).toMatchObject({ recipient: '+64299991234' });
    const aussie = await call(t.app, a.apiKey, 'POST', '/send', { to: '0412 345 678', message: 'x' });
    expect(aussie.status).toBe(400);
    expect(aussie.body.error).toContain('write it as +61 412 345 678');
    // International forms are read as written, whatever the country.
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to: '+61 412 345 678', message: 'x' })).body.recipient).toBe('+61412345678');
  });

  it('lists every refused recipient of a batch with its reason, and the preview agrees', async () => {
    const a = await createAccount(t.app, { credits: 20 });
    const body = { message: 'Hi', recipients: ['0412 345 678', '02 9999 1234', '+64 9 300 1234', '021 1234 5678', 'nope'] };
    const preview = await call(t.app, a.apiKey, 'POST', '/send-batch/preview', body);
    const sent = await call(t.app, a.apiKey, 'POST', '/send-batch', body);
    expect(sent.status).toBe(200);
    const details = [
      { number: '02 9999 1234', reason: 'an Australian landline, not a mobile (for the New Zealand mobile, write +64 29 999 1234)' },
      { number: '+64 9 300 1234', reason: 'a New Zealand landline, not a mobile' },
      { number: '021 1234 5678', reason: 'a New Zealand mobile in its local form, and this account reads local numbers as Australian: write it as +64 21 123 45678' },
      { number: 'nope', reason: 'not an Australian or New Zealand mobile number' },
    ];
    expect(sent.body).toMatchObject({ recipients_queued: 1, invalid_numbers: details.map((d) => d.number), invalid_details: details });
    expect(preview.body).toMatchObject({ invalid_numbers: details.map((d) => d.number), invalid_details: details });
    expect(preview.body.recipients).toEqual([expect.objectContaining({ phone: '+61412345678' })]);
  });

  it('applies to opt-outs added by hand and to the message list\'s number filter', async () => {
    const a = await nzAccount();
    const added = await call(t.app, a.apiKey, 'POST', '/optouts', { number: '021 123 4567' });
    expect(added.status).toBeLessThan(300);
    expect(JSON.stringify(added.body)).toContain('+64211234567');
    const refused = await call(t.app, a.apiKey, 'POST', '/send', { to: '+64211234567', message: 'x' });
    expect(refused.body.code).toBe('recipient_opted_out');
    await call(t.app, a.apiKey, 'POST', '/send', { to: '022 123 4567', message: 'x' });
    const list = await call(t.app, a.apiKey, 'GET', '/messages?to=022%20123%204567');
    expect((list.body.messages as Array<{ recipient: string }>).map((m) => m.recipient)).toEqual(['+64221234567']);
  });

  it('is set by the operator, and a sub-account takes its parent\'s unless told', async () => {
    const created = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Kiwi Co', email: 'kiwi@example.com', country: 'NZ', hierarchy_enabled: true });
    expect(created.status).toBe(201);
    const key = created.body.api_key as string;
    expect((await call(t.app, key, 'GET', '/settings')).body.settings).toMatchObject({ country: 'NZ' });
    const sub = await call(t.app, key, 'POST', '/accounts', { business_name: 'Kiwi Sub' });
    expect(sub.status).toBe(201);
    expect((await call(t.app, key, 'GET', `/account/${sub.body.id as string}`)).body.account).toMatchObject({ country: 'NZ' });
    const other = await call(t.app, key, 'POST', '/accounts', { business_name: 'Aussie Sub', country: 'AU' });
    expect((await call(t.app, key, 'GET', `/account/${other.body.id as string}`)).body.account).toMatchObject({ country: 'AU' });
    const patched = await call(t.app, key, 'PATCH', `/account/${other.body.id as string}`, { country: 'NZ' });
    expect(patched.body.account).toMatchObject({ country: 'NZ' });
    const back = await admin(t.app, 'PATCH', `/admin/accounts/${created.body.account_id as string}`, { country: 'AU' });
    expect(back.body.country).toBe('AU');
    expect((await call(t.app, key, 'GET', '/settings')).body.settings).toMatchObject({ country: 'AU' });
    expect((await call(t.app, key, 'PUT', '/settings', { country: 'US' })).status).toBe(400);
  });
});
