// Queue claims with a deep backlog (the target: claims under 10 ms with 100,000 pending rows, on a database
// whose autovacuum has not run yet). Seeds BENCH_ROWS (100,000) due webhook deliveries, as many due queued messages
// and as many scheduled messages fallen due, right after the migrations (no VACUUM, no ANALYZE; autovacuum is
// switched off on the two tables so it cannot run mid-bench), then times each claim in BENCH_ROUNDS alternating
// rounds (the releases in rounds of their own, after the rest), each claim in a transaction rolled back afterwards so the backlog stays as it was:
//   claims-webhooks     claimDue, 100 rows (its transaction-wrapped hint)
//   claims-dispatch     claimBatch, 100 rows (the hint in the claim's one round trip)
//   claims-dispatch-tx  claimBatch's statement under the transaction-wrapped hint (three more round trips)
//   claims-dispatch-0   claimBatch's statement without the hint (the baseline: the claim as it was without the hint)
//   claims-release      releaseDue, RELEASE_BATCH (1,000) rows, and claims-release-0 its statement without the hint
// Prints one JSON line per claim kind ({bench, claims, p50_ms, p99_ms, max_ms, ratio_p50 against its baseline}),
// then one per statement with what EXPLAIN (ANALYZE, BUFFERS) counts: index entries read, rows sorted, buffers
// (the evidence a loaded machine does not change).
// Usage: DATABASE_URL=postgres://…/a_fresh_database flock /tmp/tasman-bench.lock npx tsx bench/claims.ts
// (figures in docs/performance.md).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { openDatabase, rows, type Executor } from '../src/platform/db/client.ts';
import { claimInIndexOrder } from '../src/platform/db/queue-claim.ts';
import { claimDue } from '../src/modules/webhooks/delivery.repo.ts';
import { claimBatch, claimStatement } from '../src/modules/dispatch/dispatch.repo.ts';
import { releaseDue, releaseStatement } from '../src/modules/scheduling/schedule.repo.ts';
import { RELEASE_BATCH } from '../src/modules/scheduling/schedule.jobs.ts';

const databaseUrl = process.env.DATABASE_URL ?? null;
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
// Claims per kind and round; the baselines (tens to hundreds of ms each) get fewer.
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 40);
const BASELINE_CLAIMS = Number(process.env.BENCH_BASELINE_CLAIMS ?? 8);
const WANT = 100;
// An hour, not the dispatcher's 15 s: the versions a rolled-back claim leaves behind must not fall due mid-bench,
// where the baseline's scan of every due entry would read them too.
const LEASE_MS = 3_600_000;
const print = (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ db: databaseUrl ? 'postgres' : 'embedded', ...figure })}\n`);

const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-bench-claims-'));
const database = await openDatabase({ databaseUrl, dataDir, poolSize: 2 });
const { db } = database;

await db.execute(sql`alter table messages set (autovacuum_enabled = off)`);
await db.execute(sql`alter table webhook_deliveries set (autovacuum_enabled = off)`);
// 200 accounts, so the webhook claim's per-endpoint cap has endpoints to spread over.
const accounts = Array.from({ length: 200 }, () => randomUUID());
const accountArray = `{${accounts.join(',')}}`;
await db.execute(sql`
  insert into accounts (id, business_name)
  select a::uuid, 'bench claims' from unnest(${accountArray}::text[]) as a`);
await db.execute(sql`
  insert into webhook_deliveries (id, account_id, event, body, next_attempt_at)
  select gen_random_uuid(), (${accountArray}::uuid[])[1 + i % 200], 'message.dlr', '{}', now() - (i || ' milliseconds')::interval
  from generate_series(1, ${ROWS}) as i`);
for (const status of ['queued', 'scheduled'] as const) {
  await db.execute(sql`
    insert into messages (id, account_id, recipient, country, sender, body, parts, credits, status, next_attempt_at, scheduled_at)
    select gen_random_uuid(), (${accountArray}::uuid[])[1 + i % 200], '+61400000000', 'AU', 'Bench', 'x', 1, 1, ${status},
           now() - (i || ' milliseconds')::interval,
           case when ${status} = 'scheduled' then now() - (i || ' milliseconds')::interval end
    from generate_series(1, ${ROWS}) as i`);
}
const [analysed] = await rows<{ n: number }>(db, sql`
  select count(*)::int as n from pg_stat_user_tables
  where relname in ('messages', 'webhook_deliveries') and (last_analyze is not null or last_autoanalyze is not null)`);

class Rollback extends Error {}

interface Kind { bench: string; claims: number; baseline?: string; claim(tx: Executor): Promise<unknown[]> }

// Two groups, each in alternating rounds. The releases run last: each one rolled back leaves 1,000 dead versions
// due at once in the dispatcher's queue index.
const dispatchKinds: Kind[] = [
  { bench: 'claims-webhooks', claims: CLAIMS, claim: (tx) => claimDue(tx, { want: WANT, scan: WANT * 4, cap: 10, room: {}, leaseMs: LEASE_MS, token: randomUUID() }) },
  { bench: 'claims-dispatch', claims: CLAIMS, baseline: 'claims-dispatch-0', claim: (tx) => claimBatch(tx, WANT, LEASE_MS, randomUUID()) },
  { bench: 'claims-dispatch-tx', claims: CLAIMS, baseline: 'claims-dispatch-0', claim: (tx) => claimInIndexOrder(tx, (t) => rows(t, claimStatement(WANT, LEASE_MS, randomUUID()))) },
  { bench: 'claims-dispatch-0', claims: BASELINE_CLAIMS, claim: (tx) => rows(tx, claimStatement(WANT, LEASE_MS, randomUUID())) },
];
const releaseKinds: Kind[] = [
  { bench: 'claims-release', claims: Math.ceil(CLAIMS / 4), baseline: 'claims-release-0', claim: (tx) => releaseDue(tx, RELEASE_BATCH) },
  { bench: 'claims-release-0', claims: Math.ceil(BASELINE_CLAIMS / 2), claim: (tx) => rows(tx, releaseStatement(RELEASE_BATCH)) },
];

/** One claim in a transaction rolled back afterwards; its time and the rows it took. */
async function once(kind: Kind): Promise<{ ms: number; taken: number }> {
  let result = { ms: 0, taken: 0 };
  await db.transaction(async (tx) => {
    const started = performance.now();
    const taken = (await kind.claim(tx)).length;
    result = { ms: performance.now() - started, taken };
    throw new Rollback();
  }).catch((err: unknown) => { if (!(err instanceof Rollback)) throw err; });
  return result;
}

/** What EXPLAIN (ANALYZE, BUFFERS) counts for a statement, with or without the hint (rolled back). */
async function explained(statement: SQL, hinted: boolean): Promise<Record<string, number>> {
  type Node = { 'Node Type': string; 'Actual Rows': number; 'Shared Hit Blocks': number; 'Shared Read Blocks': number; 'Index Name'?: string; Plans?: Node[] };
  let plan: { Plan: Node; 'Execution Time': number } | undefined;
  await db.transaction(async (tx) => {
    if (hinted) await tx.execute(sql`set local enable_bitmapscan = off`);
    const [row] = await rows<{ 'QUERY PLAN': Array<{ Plan: Node; 'Execution Time': number }> }>(tx, sql`explain (analyze, buffers, format json) ${statement}`);
    plan = row!['QUERY PLAN'][0];
    throw new Rollback();
  }).catch((err: unknown) => { if (!(err instanceof Rollback)) throw err; });
  const nodes: Node[] = [];
  const walk = (n: Node) => { nodes.push(n); n.Plans?.forEach(walk); };
  walk(plan!.Plan);
  // The scans of the partial "due" index (a bitmap index scan, or the ordered walk); the primary key's lookups aside.
  const due = nodes.filter((n) => n['Index Name'] === 'messages_queue_idx' || n['Index Name'] === 'messages_scheduled_idx');
  return {
    due_index_entries_read: due.reduce((sum, n) => sum + n['Actual Rows'], 0),
    rows_sorted: nodes.filter((n) => n['Node Type'] === 'Sort').reduce((sum, n) => sum + (n.Plans?.[0]?.['Actual Rows'] ?? 0), 0),
    buffers: plan!.Plan['Shared Hit Blocks'] + plan!.Plan['Shared Read Blocks'],
    execution_ms: Number(plan!['Execution Time'].toFixed(2)),
  };
}

const kinds = [...dispatchKinds, ...releaseKinds];
const times = new Map<string, number[]>(kinds.map((k) => [k.bench, []]));
const taken = new Map<string, number>();
const explains: Array<Record<string, unknown>> = [];

async function rounds(group: Kind[]): Promise<void> {
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of group) {
      for (let i = 0; i < kind.claims; i++) {
        const r = await once(kind);
        times.get(kind.bench)!.push(r.ms);
        taken.set(kind.bench, r.taken);
      }
    }
  }
}

try {
  const dispatch = () => claimStatement(WANT, LEASE_MS, randomUUID());
  explains.push({ explain: 'dispatch', hinted: true, ...await explained(dispatch(), true) }, { explain: 'dispatch', hinted: false, ...await explained(dispatch(), false) });
  await rounds(dispatchKinds);
  const release = () => releaseStatement(RELEASE_BATCH);
  explains.push({ explain: 'release', hinted: true, ...await explained(release(), true) }, { explain: 'release', hinted: false, ...await explained(release(), false) });
  await rounds(releaseKinds);
  const at = (t: number[], q: number) => Number(([...t].sort((a, b) => a - b)[Math.min(t.length - 1, Math.floor(q * t.length))] ?? 0).toFixed(2));
  for (const kind of kinds) {
    const t = times.get(kind.bench)!;
    const ratio = kind.baseline ? Number((at(times.get(kind.baseline)!, 0.5) / at(t, 0.5)).toFixed(1)) : undefined;
    print({
      bench: kind.bench, rows: ROWS, never_analysed: analysed!.n === 0, claims: t.length, taken_per_claim: taken.get(kind.bench),
      p50_ms: at(t, 0.5), p99_ms: at(t, 0.99), max_ms: at(t, 1), ...(ratio ? { baseline: kind.baseline, baseline_p50_over_this: ratio } : {}),
    });
  }
  for (const e of explains) print(e);
} finally {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
