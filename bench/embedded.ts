// The zero-configuration default (the embedded PostgreSQL server Tasman manages in DATA_DIR) against the same build
// on the machine's PostgreSQL server (DATABASE_URL), side by side in one run: two `tasman start` processes, each
// with the built-in simulator in process (SIM_DLR_DELAY_MS=0), otherwise the same configuration, driven in
// alternating rounds (the embedded one first in even rounds):
//  - send: POST /send for BENCH_SECONDS (8) with autocannon, 50 connections, rotating 100 keys; requests/s;
//  - pipeline: BENCH_BATCHES (5) × POST /send-batch of 1,000 fired together, first accept → every message
//    `delivered`; messages/s.
// One JSON line per round with both figures and the ratios embedded / server, then the medians of the ratios.
// Usage: createdb -h 127.0.0.1 -U postgres bench_embedded;
//   flock /tmp/tasman-bench.lock env DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_embedded npx tsx bench/embedded.ts
import { rmSync } from 'node:fs';
import { median, round2 } from './stats.ts';
import { benchSetup, call, deliverableRecipients, sendLoad, startTasmanProcess, type BenchProcess } from './tasman-process.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 5);
const { databaseUrl, dataDir, print } = benchSetup('embedded');
if (!databaseUrl) throw new Error('bench/embedded.ts compares against the machine\'s server: set DATABASE_URL to an empty database');
const serverDir = `${dataDir}-server`;
const recipient = deliverableRecipients();

interface Side { name: 'embedded' | 'server'; proc: BenchProcess; admin: string; keys: string[] }

const common = {
  LOG_LEVEL: 'info', SIM_DLR_DELAY_MS: '0', SMPP_WINDOW: '100', RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
};
const sides: Side[] = [];

async function side(name: Side['name'], env: Record<string, string>, dir: string): Promise<Side> {
  const proc = await startTasmanProcess({ ...common, DATA_DIR: dir, TASMAN_ADMIN_TOKEN: 'bench-admin', ...env });
  const s: Side = { name, proc, admin: 'bench-admin', keys: [] };
  sides.push(s);
  for (let i = 0; i < 100; i += 1) {
    const created = await call('POST', `${proc.url}/admin/accounts`, s.admin, { business_name: `Embedded bench ${i}`, email: `eb${i}@example.com`, credits: 100_000_000 });
    if (created.status !== 201) throw new Error(`${name} account: ${JSON.stringify(created.json)}`);
    s.keys.push(created.json.api_key as string);
  }
  return s;
}

async function sendRound(s: Side): Promise<number> {
  const result = await sendLoad(s.proc.url, s.keys, { seconds: SECONDS, recipient });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${s.name} send: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return Math.round(result.requests.average);
}

async function pipelineRound(s: Side): Promise<number> {
  const started = performance.now();
  const campaigns = await Promise.all(s.keys.slice(0, BATCHES).map(async (key, i) => {
    const res = await call('POST', `${s.proc.url}/send-batch`, key, {
      message: 'Hi {{name}}, your order has shipped', recipients: Array.from({ length: 1000 }, (_, j) => ({ phone: recipient(), merge_data: { name: `C${i}-${j}` } })),
    });
    if (res.json.recipients_queued !== 1000) throw new Error(`${s.name} batch: ${JSON.stringify(res.json)}`);
    return { id: res.json.campaign_id as string, key };
  }));
  const deadline = Date.now() + 300_000;
  for (const c of campaigns) {
    for (;;) {
      if (Date.now() > deadline) throw new Error(`${s.name}: not delivered after 300 s`);
      const stats = (await call('GET', `${s.proc.url}/campaign/${c.id}?limit=1`, c.key)).json.stats as { total: number; delivered: number };
      if (stats.delivered === stats.total) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return Math.round((BATCHES * 1000) / ((performance.now() - started) / 1000));
}

try {
  const embedded = await side('embedded', {}, dataDir);
  const server = await side('server', { DATABASE_URL: databaseUrl }, serverDir);
  for (const s of [embedded, server]) { await sendRound(s); await pipelineRound(s); } // warm-up, not reported
  const ratios = { send: [] as number[], pipeline: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? [embedded, server] : [server, embedded];
    const out: Record<string, { send_per_s: number; pipeline_per_s: number }> = {};
    for (const s of order) out[s.name] = { send_per_s: await sendRound(s), pipeline_per_s: 0 };
    for (const s of order) out[s.name]!.pipeline_per_s = await pipelineRound(s);
    const ratio = {
      send: round2(out.embedded!.send_per_s / out.server!.send_per_s),
      pipeline: round2(out.embedded!.pipeline_per_s / out.server!.pipeline_per_s),
    };
    ratios.send.push(ratio.send);
    ratios.pipeline.push(ratio.pipeline);
    print({ bench: 'embedded-round', round, first: order[0]!.name, embedded: out.embedded, server: out.server, ratio });
  }
  print({ bench: 'embedded-median', rounds: ROUNDS, seconds: SECONDS, batches: BATCHES, send_ratio: median(ratios.send), pipeline_ratio: median(ratios.pipeline) });
} finally {
  for (const s of sides) await s.proc.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(serverDir, { recursive: true, force: true });
}
