// GET /messages (search with keyset pagination), the failure reason on every failed message, and metadata.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { failAndRefund, recordSent } from '../../src/modules/dispatch/dispatch.repo.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });


type Item = Record<string, unknown> & { id: string };
const list = async (key: string, query = '') => {
  const res = await call(t.app, key, 'GET', `/messages${query}`);
  return { status: res.status, body: res.body as { messages: Item[]; next_cursor: string | null; code?: string } };
};

/** Every page of a query, following next_cursor. */
async function allPages(key: string, query: string): Promise<Item[][]> {
  const pages: Item[][] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '?';
    const res = await list(key, `${query}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    pages.push(res.body.messages);
    cursor = res.body.next_cursor;
  } while (cursor !== null && pages.length < 50);
  return pages;
}

const smscId = () => randomUUID().replace(/-/g, '').slice(0, 16);

describe('GET /messages', () => {
  it('lists the account\'s messages newest first, shaped like GET /message/{id} with delivery_receipt', async () => {
    const a = await createAccount(t.app, { credits: 20 });
    const first = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'first' });
    const second = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'second', metadata: { order: 'A-1' } });
    const res = await list(a.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m) => m.id)).toEqual([second.body.message_id, first.body.message_id]);
    expect(res.body.next_cursor).toBeNull();
    const got = await call(t.app, a.apiKey, 'GET', `/message/${second.body.message_id as string}`);
    expect(res.body.messages[0]).toEqual({ ...(got.body.message as object), contact_name: null, delivery_receipt: null });
    expect(res.body.messages[0]).toMatchObject({ error_code: null, error_message: null, metadata: { order: 'A-1' } });
  });

  it('pages through every message exactly once, ties within one batch included', async () => {
    const a = await createAccount(t.app, { credits: 50 });
    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: Array.from({ length: 8 }, () => mobile()), message: 'batch' });
    expect(batch.status).toBe(200);
    for (let i = 0; i < 3; i++) await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: `single ${i}` });
    const pages = await allPages(a.apiKey, '?limit=3');
    expect(pages.map((p) => p.length)).toEqual([3, 3, 3, 2]);
    const ids = pages.flat().map((m) => m.id);
    expect(new Set(ids).size).toBe(11);
    expect(pages[0]!.map((m) => m.body)).toEqual(['single 2', 'single 1', 'single 0']);
    const created = pages.flat().map((m) => m.created_at as string);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('filters by status, recipient, campaign, sender, date and body text', async () => {
    const a = await createAccount(t.app, { credits: 50 });
    const to = mobile();
    const one = await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'Your Parcel has shipped' });
    await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'Other news' });
    const camp = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [mobile(), mobile()], message: 'Campaign text', campaign: 'spring' });
    const nz = await call(t.app, a.apiKey, 'POST', '/send', { to: '+64211234567', message: 'Kia ora' });
    const ids = async (query: string) => (await list(a.apiKey, query)).body.messages.map((m) => m.id);

    const local = `0${to.slice(3)}`;
    expect(await ids(`?to=${encodeURIComponent(local)}`)).toEqual([one.body.message_id]);
    expect(await ids(`?to=${encodeURIComponent(to.slice(-6))}`)).toEqual([one.body.message_id]);
    expect(await ids('?q=parcel')).toEqual([one.body.message_id]);
    expect(await ids('?q=%25')).toEqual([]);
    expect(await ids(`?campaign_id=${camp.body.campaign_id as string}`)).toHaveLength(2);
    expect(await ids(`?sender=${encodeURIComponent('+64220000000')}`)).toEqual([nz.body.message_id]);
    expect(await ids('?status=queued')).toHaveLength(5);
    expect(await ids('?status=delivered')).toEqual([]);
    expect(await ids('?date_from=2000-01-01&date_to=2999-12-31')).toHaveLength(5);
    expect(await ids('?date_to=2000-01-01')).toEqual([]);
    expect(await ids(`?date_from=${new Date(Date.now() + 3_600_000).toISOString()}`)).toEqual([]);
    expect(await ids(`?status=queued&campaign_id=${camp.body.campaign_id as string}&limit=1`)).toHaveLength(1);
  });

  it('never shows another account\'s messages, whatever the filter', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'private' });
    expect((await list(b.apiKey)).body.messages).toEqual([]);
    expect((await list(b.apiKey, '?q=private')).body.messages).toEqual([]);
    const mine = await list(a.apiKey, '?limit=1');
    expect(mine.body.messages[0]!.id).toBe(sent.body.message_id);
  });

  it('a deleted message takes its search row with it, in the deleting transaction (decision 0089)', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    // Scheduled a day ahead, so no dispatcher holds them while they are deleted.
    const sendAt = new Date(Date.now() + 86_400_000).toISOString();
    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [mobile(), mobile(), mobile()], message: 'Doomed notice', send_at: sendAt });
    expect(batch.status).toBe(200);
    const ids = (await list(a.apiKey, '?q=doomed')).body.messages.map((m) => m.id);
    expect(ids).toHaveLength(3);
    const [kept, ...gone] = ids as [string, string, string];
    const searchRows = async (db: Parameters<typeof rows>[0]) => (await rows<{ message_id: string }>(db, sql`
      select message_id from message_search where account_id = ${a.accountId} order by message_id`)).map((r) => r.message_id);
    expect(await searchRows(t.services.db)).toEqual([...ids].sort());

    await t.services.db.transaction(async (tx) => {
      await tx.execute(sql`delete from messages where id in (${gone[0]}, ${gone[1]})`);
      expect(await searchRows(tx)).toEqual([kept]);
    });
    expect(await searchRows(t.services.db)).toEqual([kept]);
    expect((await list(a.apiKey, '?q=doomed')).body.messages.map((m) => m.id)).toEqual([kept]);
  });

  it.each([
    ['?limit=0'], ['?limit=101'], ['?limit=abc'], ['?status=lost'], ['?campaign_id=nope'],
    ['?date_from=yesterday'], ['?date_from=2030-02-30'], ['?cursor=garbage!'], ['?cursor=' + Buffer.from('x|y').toString('base64url')],
  ])('400 for %s', async (query) => {
    const a = await createAccount(t.app);
    const res = await list(a.apiKey, query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('400 invalid_range when date_from is after date_to', async () => {
    const a = await createAccount(t.app);
    const res = await list(a.apiKey, '?date_from=2030-05-02&date_to=2030-05-01');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_range');
  });
});

describe('failure reasons', () => {
  it('a refusal at submit carries the SMPP status name and a sentence, in GET /message and the list', async () => {
    const a = await createAccount(t.app);
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'refused' });
    const id = sent.body.message_id as string;
    const refused = await failAndRefund(t.services.db, t.services.receipts.linksOf, {
      id, accountId: a.accountId, campaignId: null, sender: '', recipient: '', body: null, credits: 1, attempts: 0, claim: null, createdAt: new Date(),
    }, 'ESME_RINVDSTADR');
    expect(refused).toBe(true);
    const got = await call(t.app, a.apiKey, 'GET', `/message/${id}`);
    expect(got.body.message).toMatchObject({
      status: 'failed', error_code: 'ESME_RINVDSTADR', error_message: 'The carrier refused the message: the destination number is not valid.',
    });
    const failed = await list(a.apiKey, '?status=failed');
    expect(failed.body.messages.map((m) => [m.id, m.error_code])).toEqual([[id, 'ESME_RINVDSTADR']]);
  });

  it('a failed receipt carries its state and the SMSC error in the sentence', async () => {
    const a = await createAccount(t.app);
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'lost' });
    const id = sent.body.message_id as string;
    const smsc = smscId();
    await recordSent(t.services.db, [{ id, claim: null, smscMessageId: smsc, sentAt: new Date() }]);
    await t.services.receipts.onReceipt({ smscMessageId: smsc, state: 'expired', final: true, errorCode: '027', doneAt: new Date() });
    const got = await call(t.app, a.apiKey, 'GET', `/message/${id}`);
    expect(got.body.message).toMatchObject({
      status: 'failed', error_code: 'expired',
      error_message: 'The carrier gave up delivering the message before the handset could receive it (error 027).',
    });
    expect((await list(a.apiKey)).body.messages[0]).toMatchObject({ error_code: 'expired', delivery_receipt: { status: 'expired', error_code: '027' } });
  });
});

describe('metadata', () => {
  it('is stored per message on /send and /send-batch (recipient pairs over the batch\'s) and echoed', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const [x, y] = [mobile(), mobile()];
    const batch = await call(t.app, a.apiKey, 'POST', '/send-batch', {
      recipients: [{ phone: x, metadata: { ref: 'x', tier: 'gold' } }, y], message: 'hi', metadata: { ref: 'batch', source: 'crm' },
    });
    expect(batch.status).toBe(200);
    const items = (await list(a.apiKey)).body.messages;
    const byRecipient = new Map(items.map((m) => [m.recipient, m.metadata]));
    expect(byRecipient.get(x)).toEqual({ ref: 'x', source: 'crm', tier: 'gold' });
    expect(byRecipient.get(y)).toEqual({ ref: 'batch', source: 'crm' });
    const plain = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'no metadata' });
    expect((await call(t.app, a.apiKey, 'GET', `/message/${plain.body.message_id as string}`)).body.message).toMatchObject({ metadata: null });
  });

  it('is in the message.dlr webhook body', async () => {
    const a = await createAccount(t.app);
    await t.services.db.execute(sql`
      insert into webhook_endpoints (account_id, kind, url) values (${a.accountId}, 'delivery_receipt', 'https://example.com/dlr')`);
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'tracked', metadata: { order: '42' } });
    const id = sent.body.message_id as string;
    const smsc = smscId();
    await recordSent(t.services.db, [{ id, claim: null, smscMessageId: smsc, sentAt: new Date() }]);
    await t.services.receipts.onReceipt({ smscMessageId: smsc, state: 'delivered', final: true, errorCode: null, doneAt: new Date() });
    const [event] = await rows<{ body: string }>(t.services.db, sql`select body from webhook_deliveries where account_id = ${a.accountId} and event = 'message.dlr'`);
    expect(JSON.parse(event!.body).message).toMatchObject({ id, metadata: { order: '42' }, error_code: null });
  });

  it.each([
    [{ metadata: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])) }],
    [{ metadata: { k: 5 } }],
    [{ metadata: { ['k'.repeat(41)]: 'v' } }],
    [{ metadata: { '': 'v' } }],
    [{ metadata: { k: 'v'.repeat(501) } }],
    [{ metadata: ['a'] }],
  ])('400 and nothing charged for %j', async (extra) => {
    const a = await createAccount(t.app, { credits: 5 });
    const res = await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'x', ...extra });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 5 });
  });

  it('400 when a recipient\'s pairs and the batch\'s make more than ten', async () => {
    const a = await createAccount(t.app, { credits: 5 });
    const many = (p: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${p}${i}`, 'v']));
    const res = await call(t.app, a.apiKey, 'POST', '/send-batch', { recipients: [{ phone: mobile(), metadata: many('r', 6) }], message: 'x', metadata: many('b', 5) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect((await call(t.app, a.apiKey, 'GET', '/balance')).body).toEqual({ credits: 5 });
  });
});

describe('OpenAPI', () => {
  it('describes GET /messages and the new message fields, with response schemas', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }> }>>;
    };
    const ok = spec.paths['/messages']?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(Object.keys(ok?.properties ?? {})).toEqual(['messages', 'next_cursor']);
    const message = spec.paths['/message/{id}']?.get?.responses['200']?.content?.['application/json']?.schema.properties?.message as { properties: Record<string, unknown> };
    expect(Object.keys(message.properties)).toEqual(expect.arrayContaining(['error_code', 'error_message', 'metadata']));
  });
});
