// Reports and retention at scale: seeds 1,000,000 messages over 90 days across 200 accounts (one parent with 50
// sub-accounts among them) with set-based SQL, then measures GET /report (one account, 30 days), GET /report/group
// (51 accounts, 90 days) and the retention job removing one day's content while sends run.
// Usage: DATABASE_URL=postgres://…/an_empty_database npx tsx bench/reports.ts   (prints one JSON line per figure)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { compose } from '../src/compose.ts';
import { loadConfig } from '../src/config.ts';
import { rows } from '../src/platform/db/client.ts';
import { insertKey } from '../src/modules/keys/keys.repo.ts';
import { runRetention } from '../src/modules/retention/retention.jobs.ts';
import { sydneyDay } from '../src/platform/sydney-day.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench/reports.ts seeds a million rows: set DATABASE_URL to an empty PostgreSQL database\n');
  process.exit(2);
}
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const ACCOUNTS = 200;
const SUBS = 50;
const DAYS = 90;
const print = (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ db: 'postgres', ...figure })}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2));
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-bench-reports-'));
const config = loadConfig({
  DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
  DATABASE_POOL_SIZE: '20', SMPP_HOST: '127.0.0.1',
});
// The API alone (no workers; SMPP_HOST set so no built-in SMSC starts): the figures are of queries, not of sending.
const composed = await compose(config, { roles: { api: true, workers: false }, logger: false, adminToken: null });
const { app, services } = composed;
const db = services.db;

try {
  const [existing] = await rows<{ n: number }>(db, sql`select count(*)::int as n from messages`);
  if (existing!.n > 0) throw new Error('the database already holds messages: give the bench an empty one');

  // A v7-shaped id from a timestamp column, so ids sort by time as the app's do.
  const v7 = (ts: string) => sql.raw(`(select (substr(h,1,8)||'-'||substr(h,9,4)||'-7'||substr(h,14,3)||'-8'||substr(h,18,3)||'-'||substr(h,21,12))::uuid
    from (select lpad(to_hex((extract(epoch from ${ts})*1000)::bigint),12,'0') || substr(md5(random()::text || clock_timestamp()::text),1,20) as h) x)`);

  let t0 = performance.now();
  await db.execute(sql`
    insert into accounts (id, parent_id, business_name, email, credits, hierarchy_enabled, created_at)
    select ('00000000-0000-7000-8000-' || lpad(to_hex(g), 12, '0'))::uuid,
           case when g between 1 and ${SUBS} then '00000000-0000-7000-8000-000000000000'::uuid end,
           'Bench ' || g, 'bench' || g || '@example.com', 100000000, g = 0, now() - interval '100 days' + g * interval '1 second'
    from generate_series(0, ${ACCOUNTS - 1}) g`);
  // Messages: uniform over accounts and over the last 90 days; 86% delivered, 5% failed after sending, 2% refused
  // at submit (refunded), 4% sent awaiting a receipt, 3% queued; 10% two-part; 10% NZ.
  await db.execute(sql`
    insert into messages (id, account_id, campaign_id, recipient, country, sender, body, parts, credits, status, created_at, sent_at, dlr_status, dlr_received_at)
    select ${v7('s.ts')}, s.account_id, null,
           case when s.nz then '+6421' || lpad((s.g % 10000000)::text, 7, '0') else '+614' || lpad((s.g % 100000000)::text, 8, '0') end,
           case when s.nz then 'NZ' else 'AU' end, '+61480000000',
           'Your order ' || s.g || ' has shipped. Reply STOP to opt out', s.parts, s.parts,
           case when s.r < 0.86 then 'delivered' when s.r < 0.93 then 'failed' when s.r < 0.97 then 'sent' else 'queued' end,
           s.ts,
           case when s.r < 0.91 or (s.r >= 0.93 and s.r < 0.97) then s.ts + interval '1 second' end,
           case when s.r < 0.86 then 'delivered' when s.r < 0.91 then 'undelivered' end,
           case when s.r < 0.91 then s.ts + interval '5 seconds' end
    from (select g, ('00000000-0000-7000-8000-' || lpad(to_hex(g % ${ACCOUNTS}), 12, '0'))::uuid as account_id,
                 now() - random() * interval '${sql.raw(String(DAYS))} days' as ts, random() as r, 1 + (g % 10 = 0)::int as parts,
                 g % 10 = 3 as nz
          from generate_series(1, ${MESSAGES}) g) s`);
  print({ bench: 'seed_messages', rows: MESSAGES, seconds: Number(((performance.now() - t0) / 1000).toFixed(1)) });
  t0 = performance.now();
  await db.execute(sql`
    insert into credit_ledger (id, account_id, kind, delta, balance_after, message_id, created_at)
    select ${v7('m.created_at')}, m.account_id, 'send', -m.credits, 0, m.id, m.created_at from messages m`);
  await db.execute(sql`
    insert into credit_ledger (id, account_id, kind, delta, balance_after, message_id, created_at)
    select ${v7('m.created_at')}, m.account_id, 'refund', m.credits, 0, m.id, m.created_at + interval '2 seconds'
    from messages m where m.status = 'failed' and m.sent_at is null`);
  // Transfers inside the group: must not count as consumption.
  await db.execute(sql`
    insert into credit_ledger (id, account_id, kind, delta, balance_after, counterparty_id, created_at)
    select ${v7('x.ts')}, a.id, 'allocate', 1000, 0, a.parent_id, x.ts
    from accounts a, lateral (select now() - random() * interval '90 days' as ts from generate_series(1, 20)) x
    where a.parent_id is not null`);
  await db.execute(sql`
    insert into inbound_messages (id, account_id, from_number, to_number, body, received_at, is_optout)
    select ${v7('s.ts')}, s.account_id, '+614' || lpad((s.g % 100000000)::text, 8, '0'), '+61480000000',
           case when s.g % 50 = 0 then 'STOP' else 'Thanks, got it ' || s.g end, s.ts, s.g % 50 = 0
    from (select g, ('00000000-0000-7000-8000-' || lpad(to_hex(g % ${ACCOUNTS}), 12, '0'))::uuid as account_id,
                 now() - random() * interval '90 days' as ts from generate_series(1, ${MESSAGES / 10}) g) s`);
  await db.execute(sql`
    insert into optouts (account_id, number, source, created_at)
    select ('00000000-0000-7000-8000-' || lpad(to_hex(g % ${ACCOUNTS}), 12, '0'))::uuid, '+6149' || lpad(g::text, 7, '0'),
           'keyword', now() - random() * interval '90 days'
    from generate_series(1, ${MESSAGES / 50}) g`);
  await db.execute(sql`vacuum analyze`);
  print({ bench: 'seed_rest', seconds: Number(((performance.now() - t0) / 1000).toFixed(1)) });

  const parentId = '00000000-0000-7000-8000-000000000000';
  const loneId = '00000000-0000-7000-8000-0000000000c7'; // account 199: no hierarchy
  const parentKey = (await insertKey(db, parentId, 'bench')).key;
  const loneKey = (await insertKey(db, loneId, 'bench')).key;

  async function timeRoute(name: string, key: string, url: string, n: number) {
    const times: number[] = [];
    for (let i = 0; i < n + 5; i++) {
      const start = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      if (i >= 5) times.push(performance.now() - start); // the first few warm caches and plans
    }
    print({ bench: name, url, runs: n, p50_ms: pct(times, 50), p99_ms: pct(times, 99) });
  }
  const day = (offset: number) => sydneyDay(new Date(Date.now() - offset * 86_400_000));
  await timeRoute('report_30d', loneKey, '/report', 200);
  await timeRoute('report_30d_keyword', loneKey, '/report?keyword=order%2012', 100);
  await timeRoute('sub_account_report_30d', parentKey, `/account/00000000-0000-7000-8000-000000000001/report`, 100);
  await timeRoute('report_group_90d', parentKey, `/report/group?from=${day(90)}&to=${day(0)}`, 50);

  // Retention: one day's content falls due (everything older than 89 days) while 16 clients keep sending.
  const sendTimes: number[] = [];
  let sending = true;
  let seq = 0;
  const sender = async (key: string, into: number[]) => {
    while (sending) {
      const start = performance.now();
      const res = await app.inject({
        method: 'POST', url: '/send', headers: { authorization: `Bearer ${key}` },
        payload: { to: `+6141${String(1_000_000 + (seq++ % 8_000_000)).padStart(7, '0')}`, message: 'Concurrent send during retention' },
      });
      if (res.statusCode !== 200) throw new Error(`send: ${res.statusCode} ${res.body}`);
      into.push(performance.now() - start);
    }
  };
  const baseline: number[] = [];
  const senders = Array.from({ length: 16 }, (_, i) => sender(i % 2 ? parentKey : loneKey, baseline));
  await new Promise((r) => setTimeout(r, 5_000));
  sending = false;
  await Promise.all(senders);
  print({ bench: 'send_baseline', sends: baseline.length, p50_ms: pct(baseline, 50), p99_ms: pct(baseline, 99) });

  sending = true;
  const during = Array.from({ length: 16 }, (_, i) => sender(i % 2 ? parentKey : loneKey, sendTimes));
  const rStart = performance.now();
  const result = await runRetention({ db, now: new Date(), retentionDays: DAYS - 1 });
  const retentionMs = performance.now() - rStart;
  sending = false;
  await Promise.all(during);
  print({ bench: 'retention_one_day', ...result, seconds: Number((retentionMs / 1000).toFixed(2)) });
  print({ bench: 'send_during_retention', sends: sendTimes.length, p50_ms: pct(sendTimes, 50), p99_ms: pct(sendTimes, 99) });
} finally {
  await composed.close();
  rmSync(dataDir, { recursive: true, force: true });
}
