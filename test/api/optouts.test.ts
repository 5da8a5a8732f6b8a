// Opt-out management: POST/DELETE /optouts, the paged list, START/UNSTOP/SUBSCRIBE replies, and the CSV audit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import type { InboundSms } from '../../src/carrier/carrier.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const SHARED_AU = '+61480000000';
const mo = (m: Partial<InboundSms> & { from: string; to: string }): InboundSms => ({ text: 'hi', receivedAt: new Date(), ...m });


const csvOf = async (key: string) => {
  const res = await t.app.inject({ method: 'GET', url: '/optouts/export', headers: bearer(key) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  return res.body.trimEnd().split('\r\n').map((line) => line.split(','));
};

describe('POST and DELETE /optouts', () => {
  it('adds a number in any form (201, then 200), blocks sends to it, and removes it (404 once gone)', async () => {
    const a = await createAccount(t.app);
    const to = mobile();
    const added = await call(t.app, a.apiKey, 'POST', '/optouts', { number: `0${to.slice(3)}` });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      created: true,
      optout: { number: to, created_at: expect.stringMatching(/Z$/), source: 'api', inbound_message_id: null, inbound_body: null, message_id: null, contact_name: null },
    });
    const again = await call(t.app, a.apiKey, 'POST', '/optouts', { number: to });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, optout: { number: to, created_at: (added.body.optout as { created_at: string }).created_at } });
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'x' })).body.code).toBe('recipient_opted_out');

    expect((await call(t.app, a.apiKey, 'DELETE', `/optouts/${encodeURIComponent(to)}`)).body).toEqual({ ok: true });
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'x' })).status).toBe(200);
    const gone = await call(t.app, a.apiKey, 'DELETE', `/optouts/${encodeURIComponent(to)}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('not_found');
  });

  it('400 for a number that is not an AU/NZ mobile; another tenant\'s opt-out is 404 and stays', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    expect((await call(t.app, a.apiKey, 'POST', '/optouts', { number: '+14155552671' })).body.code).toBe('invalid_number');
    expect((await call(t.app, a.apiKey, 'POST', '/optouts', { number: 5 })).status).toBe(400);
    const to = mobile();
    await call(t.app, a.apiKey, 'POST', '/optouts', { number: to });
    expect((await call(t.app, b.apiKey, 'DELETE', `/optouts/${encodeURIComponent(to)}`)).status).toBe(404);
    expect((await call(t.app, b.apiKey, 'DELETE', '/optouts/nonsense')).status).toBe(404);
    expect(((await call(t.app, a.apiKey, 'GET', '/optouts')).body.optouts as unknown[])).toHaveLength(1);
    expect(((await call(t.app, b.apiKey, 'GET', '/optouts')).body.optouts as unknown[])).toEqual([]);
  });
});

describe('GET /optouts', () => {
  it('without limit lists everything; with limit pages by cursor, newest first, each once', async () => {
    const a = await createAccount(t.app);
    const numbers = Array.from({ length: 7 }, () => mobile());
    for (const n of numbers) await call(t.app, a.apiKey, 'POST', '/optouts', { number: n });
    // Two opt-outs in one statement share created_at: the number breaks the tie.
    const [x, y] = [mobile(), mobile()];
    await t.services.db.execute(sql`insert into optouts (account_id, number, source) values (${a.accountId}, ${x}, 'api'), (${a.accountId}, ${y}, 'api')`);
    const all = await call(t.app, a.apiKey, 'GET', '/optouts');
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.optouts).toHaveLength(9);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(t.app, a.apiKey, 'GET', `/optouts?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...(res.body.optouts as Array<{ number: string }>).map((o) => o.number));
      cursor = res.body.next_cursor as string | null;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual((all.body.optouts as Array<{ number: string }>).map((o) => o.number));
    expect(seen.slice(-7)).toEqual([...numbers].reverse());
  });

  it.each(['?limit=0', '?limit=1001', '?cursor=bad!', `?cursor=${Buffer.from('2030-01-01T00:00:00.000000Z|01a1fc97-f1e8-765e-92c4-fdeb302ed871').toString('base64url')}`])('400 for %s', async (q) => {
    const a = await createAccount(t.app);
    expect((await call(t.app, a.apiKey, 'GET', `/optouts${q}`)).status).toBe(400);
  });
});

describe('START, UNSTOP and SUBSCRIBE replies', () => {
  it.each(['START', 'unstop please', 'Subscribe!'])('%j removes the opt-out and reports is_optin in the inbound event', async (text) => {
    const a = await createAccount(t.app);
    await t.services.db.execute(sql`insert into webhook_endpoints (account_id, kind, url) values (${a.accountId}, 'inbound', 'https://example.com/hook')`);
    const person = mobile();
    await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'promo' });
    await t.services.inbox.receive(mo({ from: person, to: SHARED_AU, text: 'STOP' }));
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'x' })).body.code).toBe('recipient_opted_out');
    const row = await t.services.inbox.receive(mo({ from: person, to: SHARED_AU, text }));
    expect(row).toMatchObject({ isOptout: false, isOptin: true });
    expect((await call(t.app, a.apiKey, 'GET', '/optouts')).body.optouts).toEqual([]);
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'welcome back' })).status).toBe(200);
    const events = await rows<{ body: string }>(t.services.db, sql`select body from webhook_deliveries where account_id = ${a.accountId} order by id`);
    expect(events.map((e) => JSON.parse(e.body) as { is_optout: boolean; is_optin: boolean }).map((e) => [e.is_optout, e.is_optin])).toEqual([[true, false], [false, true]]);
    const inbox = await call(t.app, a.apiKey, 'GET', '/inbox');
    expect((inbox.body.messages as Array<{ is_optin: boolean }>)[0]!.is_optin).toBe(true);
  });

  it('START from a number that never opted out changes nothing but is still reported', async () => {
    const a = await createAccount(t.app);
    const person = mobile();
    await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'hello' });
    const row = await t.services.inbox.receive(mo({ from: person, to: SHARED_AU, text: 'start' }));
    expect(row?.isOptin).toBe(true);
    expect(await csvOf(a.apiKey)).toHaveLength(1);
  });
});

describe('GET /optouts/export', () => {
  it('lists every opt-out and opt-in with source, raw text, time and the message answered, oldest first', async () => {
    const a = await createAccount(t.app);
    const other = await createAccount(t.app);
    const person = mobile();
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: person, message: 'Sale, today only' });
    const stop = await t.services.inbox.receive(mo({ from: person, to: SHARED_AU, text: 'Stop, "now"' }));
    const back = await t.services.inbox.receive(mo({ from: person, to: SHARED_AU, text: 'START' }));
    const viaApi = mobile();
    await call(t.app, a.apiKey, 'POST', '/optouts', { number: viaApi });
    await call(t.app, a.apiKey, 'DELETE', `/optouts/${encodeURIComponent(viaApi)}`);
    await call(t.app, other.apiKey, 'POST', '/optouts', { number: mobile() });

    const res = await t.app.inject({ method: 'GET', url: '/optouts/export', headers: bearer(a.apiKey) });
    expect(res.headers['content-disposition']).toMatch(/attachment/);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('number,action,source,raw_text,received_at,inbound_message_id,message_id');
    const iso = '\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z';
    expect(lines[1]).toMatch(new RegExp(`^\\${person},optout,keyword,"Stop, ""now""",${iso},${stop!.id},${sent.body.message_id as string}$`));
    expect(lines[2]).toMatch(new RegExp(`^\\${person},optin,keyword,START,${iso},${back!.id},${sent.body.message_id as string}$`));
    expect(lines[3]).toMatch(new RegExp(`^\\${viaApi},optout,api,,${iso},,$`));
    expect(lines[4]).toMatch(new RegExp(`^\\${viaApi},optin,api,,${iso},,$`));
    expect(lines.slice(5)).toEqual(['']);
  });
});
