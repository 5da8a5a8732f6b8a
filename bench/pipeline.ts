// The carrier pipeline end to end against a real `tasman start` (API + workers + built-in SMSC simulator, receipts
// on, SIM_DLR_DELAY_MS=0, SMPP_WINDOW=100, one bind) in a child process:
//  - pipeline-batch: 10 × POST /send-batch of 1,000 fired together; messages per second from the first accepted
//    batch to the last message `delivered` (GET /campaign/{id} stats, polled every POLL_MS, one unfinished
//    campaign at a time). On PostgreSQL also the server-side span (min created_at → max dlr_received_at).
//  - pipeline-latency: single POST /send at a steady rate; latency from just before the request to the receipt
//    being applied (delivery_receipt.received_at from GET /message/{id}, read after the run so polling adds no
//    load) and to the message.dlr webhook reaching a receiver in this process (written in the same transaction
//    as `delivered`, so an upper bound on "visible as delivered").
// After each part, its database work per message (bench/db-counters.ts: WAL, row writes, statements), once every
// message is final and every webhook outcome recorded (`pipeline-batch-database`, `pipeline-latency-database`); WAL
// is the whole cluster's, so the run's alone only on the embedded server (DATABASE_URL unset) or a server nothing
// else writes to.
// Usage: DATABASE_URL=postgres://…/an_empty_database npx tsx bench/pipeline.ts   (unset: the embedded PostgreSQL in a temp dir)
// Knobs: BENCH_BATCHES (10), BENCH_SINGLE (500), BENCH_SINGLE_RPS (50), BENCH_CPU_PROF=<dir> (server --cpu-prof).
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { socketDirFor } from '../src/platform/db/embedded/process.ts';
import { pipelineDrained, perMessage, settledCounters, type Counters } from './db-counters.ts';
import { benchSetup, call, deliverableRecipients, startSimulatorProcess, startTasmanProcess } from './tasman-process.ts';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 10);
const BATCH_SIZE = 1000;
const SINGLE = Number(process.env.BENCH_SINGLE ?? 500);
const SINGLE_RPS = Number(process.env.BENCH_SINGLE_RPS ?? 50);
const POLL_MS = 50;
const { databaseUrl, dataDir, print } = benchSetup('pipeline');
const now = () => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(1));
};


const recipient = deliverableRecipients();

// BENCH_EXTERNAL_SIM=1: the simulator runs as its own `tasman simulator` process and Tasman binds to it over
// SMPP_HOST, as it would to a carrier; otherwise it shares Tasman's process (the `npm start` default).
const externalSim = process.env.BENCH_EXTERNAL_SIM === '1';
const simulator = externalSim ? await startSimulatorProcess() : null;


const proc = await startTasmanProcess({
  ...(simulator ? { SMPP_HOST: '127.0.0.1', SMPP_PORT: String(simulator.port) } : {}),
  DATA_DIR: dataDir, LOG_LEVEL: 'info', SIM_DLR_DELAY_MS: '0', SMPP_WINDOW: '100',
  RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000', WEBHOOK_ALLOW_PRIVATE: 'true',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl, TASMAN_ADMIN_TOKEN: 'bench-admin' } : {}),
});
const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 2 }) : null;
// The counters' connection: the same database, or the embedded server Tasman started in DATA_DIR.
const counterDb = pool ?? new pg.Pool({
  max: 1,
  connectionString: `postgresql://postgres:${encodeURIComponent(readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim())}@localhost/tasman?host=${encodeURIComponent(socketDirFor(dataDir))}`,
});
/** The database work per message since `before`, one line per figure, once everything is final. */
const printCounters = async (bench: string, before: Counters, messages: number) => {
  await pipelineDrained(counterDb);
  const after = await settledCounters(counterDb);
  for (const line of perMessage(before, after, messages)) print({ bench, ...line });
  return after;
};
const webhookArrivals = new Map<string, number>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = now();
    try {
      const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: { id: string } }).message.id;
      if (!webhookArrivals.has(id)) webhookArrivals.set(id, at);
    } catch { /* not ours */ }
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

try {
  const admin = databaseUrl ? 'bench-admin' : readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
  const account = async (i: number) => {
    const created = await call('POST', `${proc.url}/admin/accounts`, admin, { business_name: `Pipeline ${i}`, email: `pipeline${i}@example.com`, credits: 1_000_000 });
    if (created.status !== 201) throw new Error(`account: ${JSON.stringify(created.json)}`);
    return created.json.api_key as string;
  };

  // Batch load: every batch from its own account, all fired at once.
  const keys = await Promise.all(Array.from({ length: BATCHES }, (_, i) => account(i)));
  const total = BATCHES * BATCH_SIZE;
  const batchBefore = await settledCounters(counterDb);
  let firstAccept = 0;
  const campaigns = await Promise.all(keys.map(async (key, i) => {
    const res = await call('POST', `${proc.url}/send-batch`, key, {
      message: 'Hi {{name}}, your order has shipped', recipients: Array.from({ length: BATCH_SIZE }, (_, j) => ({ phone: recipient(), merge_data: { name: `C${i}-${j}` } })),
    });
    if (res.json.recipients_queued !== BATCH_SIZE) throw new Error(`batch failed: ${JSON.stringify(res.json)}`);
    firstAccept ||= now();
    return { id: res.json.campaign_id as string, key };
  }));
  const lastAccept = now();
  // One request per poll, so polling adds little load: campaigns finish roughly in order, so watch the first
  // unfinished one until it is done, then the next (a finished one is never looked at again).
  const open = [...campaigns];
  const deadline = Date.now() + 300_000;
  while (open.length > 0) {
    if (Date.now() > deadline) throw new Error(`not all delivered after 300 s (${open.length} campaigns open)`);
    const c = open[0]!;
    const res = await call('GET', `${proc.url}/campaign/${c.id}?limit=1`, c.key);
    const stats = res.json.stats as { total: number; delivered: number; failed: number };
    if (stats.failed > 0) throw new Error(`campaign ${c.id}: ${stats.failed} failed`);
    if (stats.delivered === stats.total) open.shift();
    else await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const allDelivered = now();
  const seconds = (allDelivered - firstAccept) / 1000;
  const figure: Record<string, unknown> = {
    bench: 'pipeline-batch', simulator: externalSim ? 'own process' : 'in process', messages: total, messages_per_s: Math.round(total / seconds), seconds: Number(seconds.toFixed(2)),
    accept_span_s: Number(((lastAccept - firstAccept) / 1000).toFixed(2)),
  };
  if (pool) {
    const { rows: [span] } = await pool.query<{ ms: number }>(`
      select extract(epoch from max(dlr_received_at) - min(created_at)) * 1000 as ms
      from messages where campaign_id = any($1::uuid[])`, [campaigns.map((c) => c.id)]);
    figure.server_messages_per_s = Math.round(total / (Number(span!.ms) / 1000));
  }
  print(figure);
  const latencyBefore = await printCounters('pipeline-batch-database', batchBefore, total);

  // Single sends at a steady rate; the account's delivery webhook points at the receiver above.
  const key = await account(BATCHES);
  const hook = await call('PUT', `${proc.url}/webhooks/delivery`, key, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/dlr`, enabled: true });
  if (hook.status !== 200) throw new Error(`webhook: ${JSON.stringify(hook.json)}`);
  const sentAt = new Map<string, number>();
  const sends: Array<Promise<void>> = [];
  const started = now();
  for (let i = 0; i < SINGLE; i++) {
    const due = started + (i * 1000) / SINGLE_RPS;
    const wait = due - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sends.push((async () => {
      const t = now();
      const res = await call('POST', `${proc.url}/send`, key, { to: recipient(), message: 'Your code is 123456' });
      if (res.status !== 200) throw new Error(`send: ${res.status} ${JSON.stringify(res.json)}`);
      sentAt.set(res.json.message_id as string, t);
    })());
  }
  await Promise.all(sends);
  const waitUntil = Date.now() + 60_000;
  while (webhookArrivals.size < SINGLE && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 100));
  const toReceipt: number[] = [];
  const toWebhook: number[] = [];
  for (const [id, t] of sentAt) {
    const res = await call('GET', `${proc.url}/message/${id}`, key);
    const receipt = res.json.delivery_receipt as { status: string; received_at: string } | null;
    if (receipt?.status !== 'delivered') throw new Error(`message ${id} not delivered: ${JSON.stringify(res.json)}`);
    toReceipt.push(Date.parse(receipt.received_at) - t);
    const hooked = webhookArrivals.get(id);
    if (hooked !== undefined) toWebhook.push(hooked - t);
  }
  print({
    bench: 'pipeline-latency', simulator: externalSim ? 'own process' : 'in process', sends: SINGLE, rate_per_s: SINGLE_RPS,
    p50_ms: pct(toReceipt, 0.5), p99_ms: pct(toReceipt, 0.99), max_ms: pct(toReceipt, 1),
    webhook_p50_ms: pct(toWebhook, 0.5), webhook_p99_ms: pct(toWebhook, 0.99), webhooks: toWebhook.length,
  });
  // The GET /message reads above write nothing, so they do not change the counts.
  await printCounters('pipeline-latency-database', latencyBefore, SINGLE);
} finally {
  await proc.stop();
  simulator?.child.kill('SIGTERM');
  receiver.closeAllConnections();
  receiver.close();
  await counterDb.end();
  rmSync(dataDir, { recursive: true, force: true });
}
