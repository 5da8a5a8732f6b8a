// GET /messages/export: GET /messages' filters as one CSV file, streamed from keyset reads with flat memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/common/csv.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const exportCsv = async (key: string, query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/messages/export${query}`, headers: bearer(key) });
  return { status: res.statusCode, headers: res.headers, text: res.body, rows: res.statusCode === 200 ? parseCsv(res.body) : [] };
};

describe('GET /messages/export', () => {
  it('answers every message GET /messages lists for the same filters, newest first, one CSV row each', async () => {
    const a = await createAccount(t.app, { credits: 20 });
    const other = await createAccount(t.app, { credits: 5 });
    const to = mobile();
    const sent: string[] = [];
    for (const message of ['first, with a comma', 'second "quoted"', '=HYPERLINK("http://x")']) {
      sent.push((await call(t.app, a.apiKey, 'POST', '/send', { to, message, metadata: { order: '-1' } })).body.message_id as string);
    }
    await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'to someone else' });
    await call(t.app, other.apiKey, 'POST', '/send', { to, message: 'another account' });

    const res = await exportCsv(a.apiKey, `?to=${encodeURIComponent(to)}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="messages.csv"');
    expect(res.text.endsWith('\r\n')).toBe(true);
    const [header, ...lines] = res.rows;
    expect(header).toEqual(['id', 'created_at', 'recipient', 'contact_name', 'sender', 'status', 'parts', 'campaign_id', 'sent_at', 'scheduled_at',
      'receipt_status', 'receipt_received_at', 'receipt_error_code', 'error_code', 'error_message', 'body', 'metadata']);
    expect(lines.map((l) => l[0])).toEqual([...sent].reverse());
    const column = (name: string) => lines.map((l) => l[header!.indexOf(name)]);
    // A formula is defused; commas and quotes survive; the E.164 recipient is left as it is.
    expect(column('body')).toEqual(['\'=HYPERLINK("http://x")', 'second "quoted"', 'first, with a comma']);
    expect(column('recipient')).toEqual([to, to, to]);
    expect(column('metadata')).toEqual(Array(3).fill('{"order":"-1"}'));

    // The same rows and order as the list's pages, for another filter.
    const listed = await call(t.app, a.apiKey, 'GET', '/messages?q=quoted');
    const exported = await exportCsv(a.apiKey, '?q=quoted');
    expect(exported.rows.slice(1).map((l) => l[0])).toEqual((listed.body.messages as Array<{ id: string }>).map((m) => m.id));
    // A page size or cursor on the list's query string does not cut the export short.
    expect((await exportCsv(a.apiKey, '?limit=1')).rows).toHaveLength(5);
    expect((await exportCsv(a.apiKey, '?status=failed')).rows).toEqual([header]);
  });

  it('refuses the filters GET /messages refuses', async () => {
    const a = await createAccount(t.app);
    const res = await exportCsv(a.apiKey, '?date_from=2026-02-01&date_to=2026-01-01');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'invalid_range' });
    expect((await exportCsv(a.apiKey, '?status=lost')).status).toBe(400);
  });
});
