// Accepted → delivered with 1, 2, 4 and 8 binds to one SMSC in its own process (`tasman simulator`, receipts at
// once), each bind limited to BENCH_BIND_TPS submits per second (default 500) with a window of 100, as a carrier
// would set them (TASMAN_CARRIERS). Rounds alternate the bind counts (1, 2, 4, 8, 1, 2…); medians per count.
// `limited_by` says which limit held: `binds` while the rate reaches 90 % of binds × TPS, else `dispatcher`
// (the pipeline, not the SMSC's per-bind limit): the first count marked `dispatcher` is the figure asked for.
// Usage: DATABASE_URL=postgres://…/postgres flock /tmp/tasman-bench.lock npx tsx bench/binds.ts
//   (each round creates and drops its own database beside the one named). Knobs: BENCH_MESSAGES (5000),
//   BENCH_ROUNDS (2), BENCH_BIND_TPS (500), BENCH_BINDS (1,2,4,8).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { benchSetup, call, deliverableRecipients, startSimulatorProcess, startTasmanProcess } from './tasman-process.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TPS = Number(process.env.BENCH_BIND_TPS ?? 500);
const BIND_COUNTS = (process.env.BENCH_BINDS ?? '1,2,4,8').split(',').map(Number);
const { databaseUrl, dataDir, print } = benchSetup('binds');
if (!databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL server (each round makes its own database)');
const recipient = deliverableRecipients();
const simulator = await startSimulatorProcess();
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();

async function round(binds: number, n: number): Promise<number> {
  const db = `bench_binds_${binds}_${n}_${process.pid}`;
  await admin.query(`create database ${db}`);
  const file = path.join(dataDir, `carriers-${binds}.json`);
  writeFileSync(file, JSON.stringify({ carriers: [{ id: 'sim', host: '127.0.0.1', port: simulator.port, system_id: 'bench', password_env: 'BENCH_SMPP_PASSWORD', binds, window: 100, tps: TPS }] }));
  const url = new URL(databaseUrl!);
  url.pathname = `/${db}`;
  const proc = await startTasmanProcess({
    TASMAN_CARRIERS: file, BENCH_SMPP_PASSWORD: 'x', DATABASE_URL: url.toString(), TASMAN_ADMIN_TOKEN: 'bench-admin', DATA_DIR: dataDir,
    RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
  });
  try {
    const created = await call('POST', `${proc.url}/admin/accounts`, 'bench-admin', { business_name: 'Binds', email: 'binds@example.com', credits: 10_000_000 });
    const key = created.json.api_key as string;
    // Every bind bound before the clock starts (start-up waits for the carrier, not for each bind).
    for (;;) {
      const view = await call('GET', `${proc.url}/admin/carriers`, 'bench-admin');
      const c = (view.json.carriers as Array<{ binds: Array<{ state: string }> }>)[0]!;
      if (c.binds.every((b) => b.state === 'bound')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const started = performance.now();
    const campaigns: Array<string> = [];
    for (let i = 0; i < MESSAGES; i += 1000) {
      const res = await call('POST', `${proc.url}/send-batch`, key, { message: 'Your parcel is on its way', recipients: Array.from({ length: Math.min(1000, MESSAGES - i) }, () => recipient()) });
      campaigns.push(res.json.campaign_id as string);
    }
    for (const id of campaigns) {
      for (;;) {
        const stats = (await call('GET', `${proc.url}/campaign/${id}?limit=1`, key)).json.stats as { total: number; delivered: number; failed: number };
        if (stats.failed > 0) throw new Error(`campaign ${id}: ${stats.failed} failed`);
        if (stats.delivered === stats.total) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return MESSAGES / ((performance.now() - started) / 1000);
  } finally {
    await proc.stop();
    await admin.query(`drop database ${db} with (force)`);
  }
}

const results = new Map<number, number[]>(BIND_COUNTS.map((b) => [b, []]));
try {
  for (let n = 0; n < ROUNDS; n++) {
    for (const binds of BIND_COUNTS) results.get(binds)!.push(await round(binds, n));
  }
} finally {
  simulator.child.kill();
  await admin.end();
}
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const base = median(results.get(BIND_COUNTS[0]!)!);
for (const binds of BIND_COUNTS) {
  const m = median(results.get(binds)!);
  print({ bench: 'binds', binds, tps_per_bind: TPS, limit_per_s: binds * TPS, messages: MESSAGES, rounds: ROUNDS, messages_per_s: Math.round(m), vs_first: Number((m / base).toFixed(2)), limited_by: m >= 0.9 * binds * TPS ? 'binds' : 'dispatcher', all: results.get(binds)!.map(Math.round) });
}
