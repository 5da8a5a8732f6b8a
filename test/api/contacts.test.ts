// Contacts and lists: one number per account, opt-outs read (never copied) and kept when a contact is deleted,
// CSV import with the account's country, and lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const local = (e164: string) => `0${e164.slice(3)}`;

describe('contacts', () => {
  it('adds, reads, searches, changes and deletes a contact; a number is one contact per account', async () => {
    const a = await createAccount(t.app);
    const phone = mobile();
    const made = await call(t.app, a.apiKey, 'POST', '/contacts', { phone: local(phone), first_name: 'Ana', last_name: 'Silva', fields: { clinic: 'Manly' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ phone, first_name: 'Ana', last_name: 'Silva', email: null, fields: { clinic: 'Manly' }, lists: [], opted_out: false });
    const again = await call(t.app, a.apiKey, 'POST', '/contacts', { phone });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('contact_exists');
    // Another account may hold the same number.
    const b = await createAccount(t.app);
    expect((await call(t.app, b.apiKey, 'POST', '/contacts', { phone })).status).toBe(201);
    expect((await call(t.app, b.apiKey, 'GET', `/contacts/${made.body.id as string}`)).status).toBe(404);

    expect((await call(t.app, a.apiKey, 'GET', '/contacts?q=silv')).body.contacts).toHaveLength(1);
    expect((await call(t.app, a.apiKey, 'GET', `/contacts?q=${phone.slice(5)}`)).body.contacts).toHaveLength(1);
    expect((await call(t.app, a.apiKey, 'GET', '/contacts?q=nobody')).body.contacts).toHaveLength(0);
    const changed = await call(t.app, a.apiKey, 'PATCH', `/contacts/${made.body.id as string}`, { first_name: 'Ana Maria', fields: { clinic: 'Bondi' } });
    expect(changed.body).toMatchObject({ first_name: 'Ana Maria', last_name: 'Silva', fields: { clinic: 'Bondi' } });
    expect((await call(t.app, a.apiKey, 'POST', '/contacts', { phone: 'nope' })).body.code).toBe('invalid_number');
    expect((await call(t.app, a.apiKey, 'DELETE', `/contacts/${made.body.id as string}`)).body).toEqual({ ok: true });
    expect((await call(t.app, a.apiKey, 'GET', `/contacts/${made.body.id as string}`)).status).toBe(404);
  });

  it('marks an opted-out contact, and deleting it never deletes the opt-out', async () => {
    const a = await createAccount(t.app);
    const phone = mobile();
    const made = await call(t.app, a.apiKey, 'POST', '/contacts', { phone });
    await call(t.app, a.apiKey, 'POST', '/optouts', { number: phone });
    expect((await call(t.app, a.apiKey, 'GET', `/contacts/${made.body.id as string}`)).body.opted_out).toBe(true);
    await call(t.app, a.apiKey, 'DELETE', `/contacts/${made.body.id as string}`);
    const kept = await rows(t.services.db, sql`select 1 from optouts where account_id = ${a.accountId} and number = ${phone}`);
    expect(kept).toHaveLength(1);
  });

  it('pages with a cursor', async () => {
    const a = await createAccount(t.app);
    for (let i = 0; i < 3; i += 1) await call(t.app, a.apiKey, 'POST', '/contacts', { phone: mobile() });
    const first = await call(t.app, a.apiKey, 'GET', '/contacts?limit=2');
    expect(first.body.contacts).toHaveLength(2);
    const second = await call(t.app, a.apiKey, 'GET', `/contacts?limit=2&cursor=${first.body.next_cursor as string}`);
    expect(second.body).toMatchObject({ contacts: [expect.any(Object)], next_cursor: null });
    expect((await call(t.app, a.apiKey, 'GET', '/contacts?cursor=bad')).status).toBe(400);
  });
});

describe('lists and import', () => {
  it('imports a CSV in the account\'s country into a list, updating known numbers and reporting bad rows', async () => {
    const a = await createAccount(t.app);
    const [x, y, z] = [mobile(), mobile(), mobile()];
    await call(t.app, a.apiKey, 'POST', '/contacts', { phone: x, first_name: 'Old', email: 'keep@x.test' });
    await call(t.app, a.apiKey, 'POST', '/optouts', { number: z });
    const list = await call(t.app, a.apiKey, 'POST', '/lists', { name: 'Patients' });
    expect(list.status).toBe(201);
    const csv = `Mobile,First Name,clinic\n${local(x)},Ana,Manly\n${local(y)},"Ben, Jr",Bondi\n02 9999 1234,Land,\n${z},Zed,\n`;
    const res = await call(t.app, a.apiKey, 'POST', '/contacts/import', { csv, list_id: list.body.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ created: 2, updated: 1, opted_out: 1, invalid: [{ row: 4, phone: '02 9999 1234', reason: expect.stringContaining('landline') }] });
    const members = (await call(t.app, a.apiKey, 'GET', `/contacts?list_id=${list.body.id as string}`)).body.contacts as Array<Record<string, unknown>>;
    expect(members.map((c) => [c.phone, c.first_name, c.email, c.fields, c.opted_out])).toEqual([
      [x, 'Ana', 'keep@x.test', { clinic: 'Manly' }, false], [y, 'Ben, Jr', null, { clinic: 'Bondi' }, false], [z, 'Zed', null, {}, true],
    ]);
    expect((await call(t.app, a.apiKey, 'GET', `/lists/${list.body.id as string}`)).body).toMatchObject({ name: 'Patients', contact_count: 3 });
    const removed = await call(t.app, a.apiKey, 'DELETE', `/lists/${list.body.id as string}/contacts`, { contact_ids: [members[0]!.id] });
    expect(removed.body).toEqual({ ok: true, changed: 1 });
    expect((await call(t.app, a.apiKey, 'POST', `/lists/${list.body.id as string}/contacts`, { contact_ids: [members[0]!.id, members[1]!.id] })).body).toEqual({ ok: true, changed: 1 });
    expect((await call(t.app, a.apiKey, 'PATCH', `/lists/${list.body.id as string}`, { name: 'All' })).body.name).toBe('All');
    expect((await call(t.app, a.apiKey, 'DELETE', `/lists/${list.body.id as string}`)).body).toEqual({ ok: true });
    expect((await call(t.app, a.apiKey, 'GET', '/contacts')).body.contacts).toHaveLength(3);
  });

  it('reads local numbers as New Zealand ones for a New Zealand account', async () => {
    const a = await createAccount(t.app);
    await call(t.app, a.apiKey, 'PUT', '/settings', { country: 'NZ' });
    const res = await call(t.app, a.apiKey, 'POST', '/contacts/import', { csv: 'phone\n021 234 5678\n' });
    expect(res.body).toMatchObject({ created: 1, invalid: [] });
    expect((await call(t.app, a.apiKey, 'GET', '/contacts')).body.contacts).toEqual([expect.objectContaining({ phone: '+64212345678' })]);
  });
});
