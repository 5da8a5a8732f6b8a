// Queue claims with a deep backlog (issue 10 item 13: claims under 10 ms with 100,000 pending rows, on a database
// whose autovacuum has not run yet). Seeds BENCH_ROWS (100,000) due webhook deliveries and as many due queued
// messages right after the migrations (no VACUUM, no ANALYZE), then times BENCH_CLAIMS (200) claims of each
// queue one after another, each in a transaction rolled back afterwards so the backlog stays as it was.
// Prints one JSON line per queue: {bench, rows, want, claims, p50_ms, p99_ms, max_ms}.
// Usage: DATABASE_URL=postgres://…/a_fresh_database flock /tmp/tasman-bench.lock npx tsx bench/claims.ts
// (figures in docs/performance.md, "Queue claims with a deep backlog").
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type Executor } from '../src/platform/db/client.ts';
import { claimDue } from '../src/modules/webhooks/delivery.repo.ts';
import { claimBatch } from '../src/modules/dispatch/dispatch.repo.ts';

const databaseUrl = process.env.DATABASE_URL ?? null;
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 200);
const WANT = 100;
const LEASE_MS = 15_000;
const print = (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ db: databaseUrl ? 'postgres' : 'embedded', ...figure })}\n`);

const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-bench-claims-'));
const database = await openDatabase({ databaseUrl, dataDir, poolSize: 2 });
const { db } = database;

// 200 accounts, so the webhook claim's per-endpoint cap has endpoints to spread over.
const accounts = Array.from({ length: 200 }, () => randomUUID());
await db.execute(sql`
  insert into accounts (id, business_name)
  select a::uuid, 'bench claims' from unnest(${`{${accounts.join(',')}}`}::text[]) as a`);
await db.execute(sql`
  insert into webhook_deliveries (id, account_id, event, body, next_attempt_at)
  select gen_random_uuid(), (${`{${accounts.join(',')}}`}::uuid[])[1 + i % 200], 'message.dlr', '{}', now() - (i || ' milliseconds')::interval
  from generate_series(1, ${ROWS}) as i`);
await db.execute(sql`
  insert into messages (id, account_id, recipient, country, sender, body, parts, credits, next_attempt_at)
  select gen_random_uuid(), (${`{${accounts.join(',')}}`}::uuid[])[1 + i % 200], '+61400000000', 'AU', 'Bench', 'x', 1, 1,
         now() - (i || ' milliseconds')::interval
  from generate_series(1, ${ROWS}) as i`);

class Rollback extends Error {}

async function timed(bench: string, claim: (tx: Executor) => Promise<unknown[]>): Promise<void> {
  const times: number[] = [];
  let claimed = 0;
  for (let i = 0; i < CLAIMS; i++) {
    await db.transaction(async (tx) => {
      const started = performance.now();
      claimed += (await claim(tx)).length;
      times.push(performance.now() - started);
      throw new Rollback();
    }).catch((err: unknown) => { if (!(err instanceof Rollback)) throw err; });
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(2));
  print({ bench, rows: ROWS, want: WANT, claims: CLAIMS, claimed_per_claim: claimed / CLAIMS, p50_ms: at(0.5), p99_ms: at(0.99), max_ms: at(1) });
}

try {
  await timed('claims-webhooks', (tx) => claimDue(tx, { want: WANT, scan: WANT * 4, cap: 10, room: {}, leaseMs: LEASE_MS, token: randomUUID() }));
  await timed('claims-dispatch', (tx) => claimBatch(tx, WANT, LEASE_MS, randomUUID()));
} finally {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
