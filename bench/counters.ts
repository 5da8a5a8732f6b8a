// The database work per message over the whole path (POST /send accepted → submitted → receipt → `delivered` →
// message.dlr webhook answered 2xx and its outcome recorded), read from PostgreSQL's own counters
// (bench/db-counters.ts), which do not depend on the machine's noise: one run is enough.
// It runs its own PostgreSQL cluster (the embedded server in a temporary directory, with pg_stat_statements
// loaded), so the cluster-wide WAL and checkpoint counts are this run's alone, and a real `tasman start` on it
// (the default process layout unless TASMAN_WORKERS says otherwise; the built-in SMSC, receipts at once).
// A warm-up of BENCH_WARMUP messages, a CHECKPOINT (so full-page images do not depend on when the last one ran),
// then BENCH_MESSAGES through BENCH_KEYS accounts, each with its delivery webhook on a receiver in this process.
// Prints one JSON line per figure: wal_bytes_per_message (with the checkpoints during the run), wal_records_per_message
// (with full-page images), row_writes_per_message (inserts + updates + deletes, and by table with HOT updates),
// statements_per_message (the most frequent ones), wal_by_record_per_message (records and bytes by kind, pg_walinspect), heap_locks_by_table_per_message.
// Usage: npx tsx bench/counters.ts   (under a minute)
// Knobs: BENCH_MESSAGES (2000), BENCH_KEYS (10), BENCH_CONNECTIONS (50), BENCH_WARMUP (200), BENCH_SMPP_SERVER=1 (the
// SMPP server on: what it costs messages sent over HTTP).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/platform/db/embedded/server.ts';
import { pipelineDrained, perMessage, readCounters, settledCounters } from './db-counters.ts';
import { runRound, startCallbackReceiver, tasmanSystem } from './e2e.ts';
import { deliverableRecipients, startTasmanProcess, type BenchProcess } from './tasman-process.ts';
import { freePort } from '../test/support/process.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const KEYS = Number(process.env.BENCH_KEYS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const print = (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ bench: 'counters', messages: MESSAGES, ...figure })}\n`);

const pgDir = mkdtempSync(path.join(tmpdir(), 'tasman-bench-counters-pg-'));
const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-bench-counters-'));
let server: EmbeddedServer | null = null;
let tasman: BenchProcess | null = null;
let db: pg.Client | null = null;
const receiver = await startCallbackReceiver();
const started = Date.now();
try {
  // pg_stat_statements must be loaded at server start: set it, then start the server again.
  server = await startEmbeddedPostgres({ dataDir: pgDir });
  const setup = new pg.Client({ connectionString: server.url });
  await setup.connect();
  await setup.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`);
  await setup.end();
  await server.stop();
  server = await startEmbeddedPostgres({ dataDir: pgDir });
  db = new pg.Client({ connectionString: server.url });
  await db.connect();
  await db.query('create extension if not exists pg_stat_statements').catch((err: Error) => print({ figure: 'note', pg_stat_statements: err.message }));
  // pg_walinspect (PostgreSQL 16+) says which kinds of WAL record the bytes went to.
  const walinspect = await db.query('create extension if not exists pg_walinspect').then(() => true, () => false);

  tasman = await startTasmanProcess({
    DATA_DIR: dataDir, DATABASE_URL: server.url, TASMAN_ADMIN_TOKEN: 'bench-admin', TASMAN_WORKERS: process.env.TASMAN_WORKERS ?? '',
    SIM_DLR_DELAY_MS: '0', SMPP_WINDOW: '100', LOG_LEVEL: 'info',
    RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000', WEBHOOK_ALLOW_PRIVATE: 'true',
    // A port chosen here: cluster children share a port 0 with the API's (as SIM_PORT's, cli/supervise.ts).
    ...(process.env.BENCH_SMPP_SERVER === '1' ? { SMPP_SERVER_PORT: String(await freePort()) } : {}),
  });
  const t = await tasmanSystem({ name: 'tasman', proc: tasman, db, receiver, keyCount: KEYS, connections: CONNECTIONS, recipient: deliverableRecipients(), text: 'Your order has shipped' });
  const round = (messages: number, tag: string) => runRound(receiver, t.system, { keys: KEYS, messages, connections: CONNECTIONS, tag });
  if (WARMUP > 0) { await round(WARMUP, 'w'); await pipelineDrained(db); }
  await db.query('checkpoint');
  const before = await settledCounters(db);
  const result = await round(MESSAGES, 'm');
  await pipelineDrained(db);
  const after = await settledCounters(db);
  for (const line of perMessage(before, after, MESSAGES)) print(line);
  if (walinspect) {
    const { rows } = await db.query<{ kind: string; count: string; bytes: string }>(`
      select "resource_manager/record_type" as kind, count, record_size + fpi_size as bytes
      from pg_get_wal_stats($1::pg_lsn, $2::pg_lsn, true) where count > 0 order by record_size + fpi_size desc limit 15`, [before.walLsn, after.walLsn]);
    const per = (n: string) => Math.round((Number(n) / MESSAGES) * 100) / 100;
    print({ figure: 'wal_by_record_per_message', value: Object.fromEntries(rows.map((r) => [r.kind, { records: per(r.count), bytes: per(r.bytes) }])) });
    // Whose rows the tuple locks (Heap/LOCK) were taken on: claims, foreign-key checks, account locks.
    const locks = await db.query<{ rel: string; count: string }>(`
      select coalesce(c.relname, 'other') as rel, count(*) as count
      from pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn) w
      left join pg_class c on c.relfilenode = (regexp_match(w.block_ref, 'rel \\d+/\\d+/(\\d+)'))[1]::oid
      where w.resource_manager = 'Heap' and w.record_type = 'LOCK' group by 1 order by 2 desc`, [before.walLsn, after.walLsn]);
    print({ figure: 'heap_locks_by_table_per_message', value: Object.fromEntries(locks.rows.map((r) => [r.rel, per(r.count)])) });
  }
  print({ figure: 'run', layout: process.env.TASMAN_WORKERS ?? 'default', smpp_server: process.env.BENCH_SMPP_SERVER === '1', keys: KEYS, connections: CONNECTIONS, accept_per_s: result.accept_per_s, e2e_per_s: result.e2e_per_s, seconds: Math.round((Date.now() - started) / 1000), server: (await readCounters(db)).statements ? 'embedded, pg_stat_statements loaded' : 'embedded' });
  await t.close();
} finally {
  await tasman?.stop();
  await db?.end().catch(() => {});
  await server?.stop();
  receiver.close();
  rmSync(pgDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
