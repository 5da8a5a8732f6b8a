// POST /send/preview and /send-batch/preview: what would be sent and charged, with nothing written or charged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });


const messageCount = async (accountId: string) =>
  (await rows<{ n: number }>(t.services.db, sql`select count(*)::int as n from messages where account_id = ${accountId}`))[0]!.n;

describe('POST /send-batch/preview', () => {
  it('shows each recipient\'s merged text, encoding, parts and credits, and writes nothing', async () => {
    const a = await createAccount(t.app, { credits: 3 });
    const [x, y, z] = [mobile(), mobile(), mobile()];
    await t.services.db.execute(sql`insert into optouts (account_id, number, source) values (${a.accountId}, ${z}, 'keyword')`);
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch/preview', {
      message: 'Hi {{name}}, your code is ready',
      recipients: [{ phone: x, merge_data: { name: 'Zoé' } }, { phone: y, merge_data: { name: '李' + 'x'.repeat(200) } }, z, 'not a number', x],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      recipients: [
        { phone: x, text: 'Hi Zoé, your code is ready', encoding: 'gsm7', parts: 1, credits: 1, segments: 1 },
        // 225 characters in UCS-2: two credits by the parts rule, four segments of 67 on the carrier.
        { phone: y, text: `Hi 李${'x'.repeat(200)}, your code is ready`, encoding: 'ucs2', parts: 2, credits: 2, segments: 4 },
      ],
      total_credits: 3, total_segments: 5, invalid_numbers: ['not a number'],
      invalid_details: [{ number: 'not a number', reason: 'not an Australian or New Zealand mobile number' }],
      opted_out_count: 1, duplicates_removed: 1, missing_merge_fields: [],
    });
    expect(await messageCount(a.accountId)).toBe(0);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 3 });
  });

  it('counts the opt-out link at its real length, and previews more than the balance covers', async () => {
    const a = await createAccount(t.app, { credits: 0 });
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch/preview', { message: `${'a'.repeat(130)} Stop: {{OptOutLink}}`, recipients: [mobile()] });
    expect(res.status).toBe(200);
    const [r] = res.body.recipients as Array<{ text: string; parts: number }>;
    expect(r!.text).toMatch(new RegExp(`Stop: ${t.config.optoutLinkBase}/[0-9A-Za-z]{7}$`));
    expect(r!.parts).toBe([...r!.text].length <= 160 ? 1 : 2);
    expect(res.body.total_credits).toBe(r!.parts);
  });

  it('answers 400 as /send-batch does for a sender the account may not use', async () => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch/preview', { message: 'x', recipients: [mobile()], sender: 'NotMine' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('sender_not_allowed');
  });
});

describe('POST /send/preview', () => {
  it('shows the one message and whether the recipient opted out, and writes nothing', async () => {
    const a = await createAccount(t.app, { credits: 1 });
    const to = mobile();
    const res = await call(t.app, a.apiKey, 'POST', '/send/preview', { to: `0${to.slice(3)}`, message: 'Price: €5 [today]' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ phone: to, text: 'Price: €5 [today]', encoding: 'gsm7', parts: 1, credits: 1, segments: 1, opted_out: false });
    await t.services.db.execute(sql`insert into optouts (account_id, number, source) values (${a.accountId}, ${to}, 'keyword')`);
    expect((await call(t.app, a.apiKey, 'POST', '/send/preview', { to, message: '😀' })).body).toMatchObject({ encoding: 'ucs2', opted_out: true });
    expect(await messageCount(a.accountId)).toBe(0);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 1 });
  });

  it.each([
    [{ to: 'nope', message: 'x' }, 'invalid_number'],
    [{ to: '+61412345678', message: 'x'.repeat(1601) }, 'message_too_long'],
    [{ to: '+61412345678', message: '   ' }, 'message_empty'],
    [{ to: '+61412345678', message: 'x', sender: 'NotMine' }, 'sender_not_allowed'],
  ])('400 for %j (%s)', async (body, code) => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'POST', '/send/preview', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
  });
});

describe('merge fields that cannot go out wrong', () => {
  it('refuses a placeholder no recipient has, naming it and the known fields, on the preview and the send alike', async () => {
    const a = await createAccount(t.app, { credits: 5 });
    const body = { message: 'Hi {{nmae}}, ready', recipients: [{ phone: mobile(), merge_data: { name: 'Ana' } }, mobile()] };
    for (const url of ['/send-batch/preview', '/send-batch']) {
      const res = await call(t.app, a.apiKey, 'POST', url, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'unknown_merge_field', field: 'nmae', fields: ['nmae'], known: ['name', 'OptOutLink', 'SendingNumber'] });
      expect(res.body.error).toContain('{{nmae}}');
      expect(res.body.error).toContain('{{name}}, {{OptOutLink}}, {{SendingNumber}}');
    }
    for (const url of ['/send/preview', '/send']) {
      const res = await call(t.app, a.apiKey, 'POST', url, { to: mobile(), message: 'Hi {{name}}' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'unknown_merge_field', field: 'name', known: ['OptOutLink', 'SendingNumber'] });
    }
    expect(await messageCount(a.accountId)).toBe(0);
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 5 });
    // The service fields are always known.
    const ok = await call(t.app, a.apiKey, 'POST', '/send/preview', { to: mobile(), message: 'From {{SendingNumber}}: stop {{ OptOutLink }}' });
    expect(ok.status).toBe(200);
  });

  it('lists recipients missing a field others have, sends them as before, and refuses them with strict_merge_fields', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const [x, y, z] = [mobile(), mobile(), mobile()];
    const body = { message: 'Hi {{name}}, code {{code}}', recipients: [{ phone: x, merge_data: { name: 'Ana', code: '1' } }, { phone: y, merge_data: { name: 'Ben' } }, z] };
    const preview = await call(t.app, a.apiKey, 'POST', '/send-batch/preview', body);
    expect(preview.status).toBe(200);
    expect(preview.body.missing_merge_fields).toEqual([{ phone: y, fields: ['code'] }, { phone: z, fields: ['name', 'code'] }]);
    for (const url of ['/send-batch/preview', '/send-batch']) {
      const strict = await call(t.app, a.apiKey, 'POST', url, { ...body, strict_merge_fields: true });
      expect(strict.status).toBe(400);
      expect(strict.body).toMatchObject({ code: 'merge_field_missing', recipients: [{ phone: y, fields: ['code'] }, { phone: z, fields: ['name', 'code'] }] });
    }
    expect(await messageCount(a.accountId)).toBe(0);
    const sent = await call(t.app, a.apiKey, 'POST', '/send-batch', body);
    expect(sent.body).toMatchObject({ recipients_queued: 3, credits_used: 3 });
    const complete = await call(t.app, a.apiKey, 'POST', '/send-batch/preview', { ...body, recipients: [body.recipients[0]], strict_merge_fields: true });
    expect(complete.body.missing_merge_fields).toEqual([]);
  });

  it('fills {name} when name is a field of the batch, and leaves other single-brace text alone', async () => {
    const a = await createAccount(t.app);
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch/preview', {
      message: 'Hi {name}, {nope} {"k": 1}', recipients: [{ phone: mobile(), merge_data: { name: 'Ana' } }],
    });
    expect(res.status).toBe(200);
    expect((res.body.recipients as Array<{ text: string }>)[0]!.text).toBe('Hi Ana, {nope} {"k": 1}');
    const plain = await call(t.app, a.apiKey, 'POST', '/send/preview', { to: mobile(), message: 'Hi {name}' });
    expect(plain.body.text).toBe('Hi {name}');
  });
});
