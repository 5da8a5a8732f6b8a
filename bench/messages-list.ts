// GET /messages at 1,000,000 messages in one account: seeds them with set-based SQL (over 90 days, 10 campaigns of
// 10,000, 2% failed, a tenth with a body naming "parcel"), then times the first page, a deep page reached by cursor,
// and each filter, including ones that match one message or none. Target: under 50 ms p99.
// Usage: DATABASE_URL=postgres://…/an_empty_database npx tsx bench/messages-list.ts   (one JSON line per figure)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { compose } from '../src/compose.ts';
import { loadConfig } from '../src/config.ts';
import { rows } from '../src/platform/db/client.ts';
import { insertKey } from '../src/modules/keys/keys.repo.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench/messages-list.ts seeds a million rows: set DATABASE_URL to an empty PostgreSQL database\n');
  process.exit(2);
}
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const print = (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ db: 'postgres', ...figure })}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2));
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-bench-list-'));
const config = loadConfig({
  DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
  DATABASE_POOL_SIZE: '10', SMPP_HOST: '127.0.0.1',
});
// The API alone (no workers): the figures are of the query.
const composed = await compose(config, { roles: { api: true, workers: false }, logger: false, adminToken: null });
const { app, services } = composed;
const db = services.db;
const accountId = '00000000-0000-7000-8000-00000000000a';
const campaign = (n: number) => `00000000-0000-7000-8000-0000000c${String(n).padStart(4, '0')}`;

try {
  const [existing] = await rows<{ n: number }>(db, sql`select count(*)::int as n from messages`);
  if (existing!.n > 0) throw new Error('the database already holds messages: give the bench an empty one');
  let t0 = performance.now();
  await db.execute(sql`insert into accounts (id, business_name, email, credits) values (${accountId}, 'Bench list', 'list@example.com', 1000000)`);
  await db.execute(sql`
    insert into campaigns (id, account_id, name, recipient_count)
    select ('00000000-0000-7000-8000-0000000c' || lpad(g::text, 4, '0'))::uuid, ${accountId}, 'c' || g, 10000 from generate_series(0, 9) g`);
  // ids: v7-shaped from created_at, as the app makes them.
  await db.execute(sql`
    insert into messages (id, account_id, campaign_id, recipient, country, sender, body, parts, credits, status, created_at, metadata)
    select (substr(h,1,8)||'-'||substr(h,9,4)||'-7'||substr(h,14,3)||'-8'||substr(h,18,3)||'-'||substr(h,21,12))::uuid,
           ${accountId},
           case when g % 100 = 7 then ('00000000-0000-7000-8000-0000000c' || lpad(((g / 100) % 10)::text, 4, '0'))::uuid end,
           '+614' || lpad((g % 100000000)::text, 8, '0'), 'AU', case when g % 5 = 0 then 'BENCHCO' else '+61480000000' end,
           case when g % 10 = 0 then 'Your parcel ' || g || ' is on its way' else 'Appointment reminder ' || g end,
           1, 1, case when g % 50 = 0 then 'failed' when g % 50 = 1 then 'queued' else 'delivered' end, ts,
           case when g % 3 = 0 then jsonb_build_object('order', g::text) end
    from (select g, ts, lpad(to_hex((extract(epoch from ts) * 1000)::bigint), 12, '0') || substr(md5(g::text), 1, 20) as h
          from (select g, now() - random() * interval '90 days' as ts from generate_series(1, ${MESSAGES}) g) x) s`);
  await db.execute(sql`vacuum analyze messages`);
  await db.execute(sql`vacuum analyze message_search`); // filled by the insert trigger
  print({ bench: 'seed_messages', rows: MESSAGES, seconds: Number(((performance.now() - t0) / 1000).toFixed(1)) });

  const key = (await insertKey(db, accountId, 'bench')).key;
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json() as { messages?: unknown[]; next_cursor: string | null };
  };
  async function timeRoute(name: string, url: string, n = 100) {
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < n + 5; i++) {
      t0 = performance.now();
      count = (await get(url)).messages?.length ?? 0;
      if (i >= 5) times.push(performance.now() - t0); // the first few warm caches and plans
    }
    print({ bench: name, url, runs: n, returned: count, p50_ms: pct(times, 50), p99_ms: pct(times, 99) });
  }

  // A cursor 100 pages (10,000 rows) deep, reached as a client would (less deep for a small BENCH_MESSAGES).
  const depth = Math.min(100, Math.floor(MESSAGES / 200));
  let cursor: string | null = null;
  for (let i = 0; i < depth; i++) cursor = (await get(`/messages?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).next_cursor;
  const [someone] = await rows<{ recipient: string }>(db, sql`select recipient from messages where account_id = ${accountId} limit 1 offset ${Math.floor(MESSAGES / 2)}`);

  // The floor on this machine at this moment: an authenticated route that reads one row (the key's account).
  // Measured first and last, so a loaded machine shows in it as much as in the list figures.
  await timeRoute('baseline_balance', '/balance');
  await timeRoute('list_first_page', '/messages?limit=100');
  await timeRoute(`list_page_${depth + 1}_by_cursor`, `/messages?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
  await timeRoute('list_status_failed', '/messages?limit=100&status=failed');
  await timeRoute('list_status_queued', '/messages?limit=100&status=queued');
  await timeRoute('list_to_exact', `/messages?limit=100&to=${encodeURIComponent(someone!.recipient)}`);
  await timeRoute('list_to_substring', '/messages?limit=100&to=1234');
  await timeRoute('list_to_no_match', '/messages?limit=100&to=98765432');
  await timeRoute('list_campaign', `/messages?limit=100&campaign_id=${campaign(3)}`);
  await timeRoute('list_sender', '/messages?limit=100&sender=benchco');
  await timeRoute('list_sender_no_match', '/messages?limit=100&sender=NOBODY');
  await timeRoute('list_status_cancelled_none', '/messages?limit=100&status=cancelled');
  await timeRoute('list_q_body', '/messages?limit=100&q=parcel');
  await timeRoute('list_q_one_match', `/messages?limit=100&q=${encodeURIComponent('parcel 123450 ')}`);
  const day = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);
  await timeRoute('list_one_day', `/messages?limit=100&date_from=${day}&date_to=${day}`);
  // Filters nothing matches: without an index to look them up in, they walk the whole account.
  await timeRoute('list_q_no_match', '/messages?limit=100&q=zzzznomatch');
  await timeRoute('baseline_balance_after', '/balance');
} finally {
  await composed.close();
  rmSync(dataDir, { recursive: true, force: true });
}
