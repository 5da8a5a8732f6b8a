// PostgreSQL's own counters of the work a round made, per message: WAL bytes (pg_current_wal_lsn), WAL records
// and full-page images (pg_stat_wal), row writes by table (pg_stat_user_tables: inserts, updates, HOT updates,
// deletes) and statements (pg_stat_statements, when the server loads it), with the checkpoints that ran between
// the two readings. They do not depend on the machine's noise, unlike rates. WAL and checkpoints are counted for
// the whole cluster, so they are the round's own only on a cluster nothing else writes to (bench/counters.ts runs
// one); the table and statement counters are the database's.
import type pg from 'pg';

/** Marks the bench's own statements, so pg_stat_statements' count leaves them out. */
const OURS = '/* bench-counters */';

type Db = pg.Client | pg.Pool;

export interface Counters {
  walLsn: string;
  walRecords: number;
  walFpi: number;
  checkpoints: number;
  /** per table: inserts, updates, HOT updates, deletes */
  tables: Record<string, { ins: number; upd: number; hot: number; del: number }>;
  /** null when pg_stat_statements is not loaded */
  statements: { all: number; byQuery: Map<string, number> } | null;
}

async function checkpoints(db: Db): Promise<number> {
  // PostgreSQL 17 moved the counts to pg_stat_checkpointer.
  try {
    const { rows: [r] } = await db.query<{ n: string }>(`${OURS} select num_timed + num_requested as n from pg_stat_checkpointer`);
    return Number(r!.n);
  } catch {
    const { rows: [r] } = await db.query<{ n: string }>(`${OURS} select checkpoints_timed + checkpoints_req as n from pg_stat_bgwriter`);
    return Number(r!.n);
  }
}

async function statements(db: Db): Promise<Counters['statements']> {
  try {
    const { rows } = await db.query<{ query: string; calls: string }>(
      `${OURS} select query, calls from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())`);
    const byQuery = new Map<string, number>();
    let all = 0;
    for (const r of rows) {
      if (r.query.includes(OURS)) continue;
      const q = r.query.replace(/\s+/g, ' ').slice(0, 160);
      byQuery.set(q, (byQuery.get(q) ?? 0) + Number(r.calls));
      all += Number(r.calls);
    }
    return { all, byQuery };
  } catch {
    return null;
  }
}

export async function readCounters(db: Db): Promise<Counters> {
  const { rows: [wal] } = await db.query<{ lsn: string; records: string; fpi: string }>(
    `${OURS} select pg_current_wal_lsn()::text as lsn, wal_records as records, wal_fpi as fpi from pg_stat_wal`);
  const { rows } = await db.query<{ relname: string; ins: string; upd: string; hot: string; del: string }>(
    `${OURS} select relname, n_tup_ins as ins, n_tup_upd as upd, n_tup_hot_upd as hot, n_tup_del as del from pg_stat_user_tables`);
  return {
    walLsn: wal!.lsn, walRecords: Number(wal!.records), walFpi: Number(wal!.fpi), checkpoints: await checkpoints(db),
    tables: Object.fromEntries(rows.map((r) => [r.relname, { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), del: Number(r.del) }])),
    statements: await statements(db),
  };
}

const tableKey = (c: Counters) => JSON.stringify(c.tables) + c.walRecords;

/**
 * The counters once the server has published everything done so far: a backend publishes its table and WAL
 * counts at most once a second while busy and up to 10 s after it went idle, so this reads until they have not
 * moved for `quietMs` (11 s).
 */
export async function settledCounters(db: Db, quietMs = Number(process.env.BENCH_SETTLE_MS ?? 11_000)): Promise<Counters> {
  let last = await readCounters(db);
  let since = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await readCounters(db);
    if (tableKey(now) !== tableKey(last)) { last = now; since = Date.now(); continue; }
    if (Date.now() - since >= quietMs) return now;
  }
}

/** Waits until Tasman has finished every message and recorded every webhook outcome (not only sent it). */
export async function pipelineDrained(db: Db, timeoutMs = 300_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows: [r] } = await db.query<{ open: string }>(`${OURS} select
      (select count(*) from messages where status in ('queued', 'sent')) + (select count(*) from webhook_deliveries where status = 'pending') as open`);
    if (Number(r!.open) === 0) return;
    if (Date.now() > until) throw new Error(`${r!.open} messages or webhook deliveries still open`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

const lsnBytes = (lsn: string) => { const [hi, lo] = lsn.split('/'); return BigInt(`0x${hi}`) * 2n ** 32n + BigInt(`0x${lo}`); };
const per = (n: number, messages: number) => Math.round((n / messages) * 100) / 100;

/** The figures per message between two readings, one object per printed line. */
export function perMessage(before: Counters, after: Counters, messages: number): Array<Record<string, unknown>> {
  const tables: Record<string, Record<string, number>> = {};
  let writes = 0;
  for (const [name, a] of Object.entries(after.tables)) {
    const b = before.tables[name] ?? { ins: 0, upd: 0, hot: 0, del: 0 };
    const d = { ins: a.ins - b.ins, upd: a.upd - b.upd, hot: a.hot - b.hot, del: a.del - b.del };
    const sum = d.ins + d.upd + d.del;
    if (sum === 0) continue;
    writes += sum;
    tables[name] = { inserts: per(d.ins, messages), updates: per(d.upd, messages), hot_updates: per(d.hot, messages), deletes: per(d.del, messages) };
  }
  const checkpoints = after.checkpoints - before.checkpoints;
  const lines: Array<Record<string, unknown>> = [
    { figure: 'wal_bytes_per_message', value: per(Number(lsnBytes(after.walLsn) - lsnBytes(before.walLsn)), messages), checkpoints },
    { figure: 'wal_records_per_message', value: per(after.walRecords - before.walRecords, messages), full_page_images: per(after.walFpi - before.walFpi, messages) },
    { figure: 'row_writes_per_message', value: per(writes, messages), tables },
  ];
  if (after.statements && before.statements) {
    const top: Record<string, number> = {};
    const diffs = [...after.statements.byQuery].map(([q, n]) => [q, n - (before.statements!.byQuery.get(q) ?? 0)] as const).filter(([, n]) => n > 0);
    for (const [q, n] of diffs.sort((x, y) => y[1] - x[1]).slice(0, 12)) top[q] = per(n, messages);
    lines.push({ figure: 'statements_per_message', value: per(after.statements.all - before.statements.all, messages), top });
  } else {
    lines.push({ figure: 'statements_per_message', value: null, why: 'pg_stat_statements is not loaded on this server' });
  }
  return lines;
}
