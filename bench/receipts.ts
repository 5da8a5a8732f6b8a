// How fast Tasman acknowledges receipts under load (issue 10 item 9: deliver_sm_resp p99 under 250 ms at the
// pipeline's full rate). A real `tasman start` in a child process binds to a receipt-timing SMSC in this process
// (test/support/receipt-smsc.ts, npm `smpp`: accepts every submit, sends a DELIVRD deliver_sm for each at once,
// window 100 per session, and times each deliver_sm until its deliver_sm_resp). Two rounds:
//  - receipts-full: BENCH_BATCHES (20) × POST /send-batch of 1,000 fired together: the pipeline's full rate;
//  - receipts-steady: BENCH_STEADY (1,000) single sends at BENCH_STEADY_RPS (100/s): the baseline, same run.
// Prints one JSON line per round: {bench, messages, messages_per_s, p50_ms, p99_ms, max_ms, resent}.
// Usage: DATABASE_URL=postgres://…/an_empty_database flock /tmp/tasman-bench.lock npx tsx bench/receipts.ts
import { rmSync } from 'node:fs';
import { benchSetup, call, deliverableRecipients, startTasmanProcess } from './tasman-process.ts';
import { startReceiptSmsc } from '../test/support/receipt-smsc.ts';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 20);
const BATCH_SIZE = 1000;
const STEADY = Number(process.env.BENCH_STEADY ?? 1000);
const STEADY_RPS = Number(process.env.BENCH_STEADY_RPS ?? 100);
const { databaseUrl, dataDir, print } = benchSetup('receipts');
if (!databaseUrl) throw new Error('bench/receipts.ts needs DATABASE_URL (the SMSC is external, so the simulator is off)');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number((s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0).toFixed(1));
};
const recipient = deliverableRecipients();
// BENCH_RECEIPT_DELAY_MS: how long after accepting a submit the SMSC sends its receipt (0: at once, the harshest
// case, as each receipt then also waits for its message's `sent` write; a handset takes seconds).
const smsc = await startReceiptSmsc({ window: 100, receiptDelayMs: Number(process.env.BENCH_RECEIPT_DELAY_MS ?? 0) });
const proc = await startTasmanProcess({
  DATABASE_URL: databaseUrl, TASMAN_ADMIN_TOKEN: 'bench-admin', TASMAN_SIMULATOR: 'false', DATA_DIR: dataDir,
  SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port), SMPP_WINDOW: '100',
  RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
});

async function acknowledgedAll(target: number, what: string): Promise<void> {
  const deadline = Date.now() + 600_000;
  while (smsc.acknowledged() < target) {
    if (Date.now() > deadline) throw new Error(`${what}: ${smsc.acknowledged()} of ${target} receipts acknowledged after 600 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function figure(bench: string, messages: number, from: number, startedAt: number, resentBefore: number): void {
  const latencies = smsc.latenciesMs.slice(from);
  const seconds = (performance.now() - startedAt) / 1000;
  print({
    bench, messages, messages_per_s: Math.round(messages / seconds), p50_ms: pct(latencies, 0.5), p99_ms: pct(latencies, 0.99),
    max_ms: pct(latencies, 1), resent: smsc.resent() - resentBefore,
  });
}

try {
  const account = async (i: number) => {
    const created = await call('POST', `${proc.url}/admin/accounts`, 'bench-admin', { business_name: `Receipts ${i}`, email: `receipts${i}@example.com`, credits: 1_000_000 });
    if (created.status !== 201) throw new Error(`account: ${JSON.stringify(created.json)}`);
    return created.json.api_key as string;
  };

  // Full rate: every batch from its own account, all fired at once.
  const keys = await Promise.all(Array.from({ length: BATCHES }, (_, i) => account(i)));
  let from = smsc.latenciesMs.length;
  let resent = smsc.resent();
  let started = performance.now();
  await Promise.all(keys.map(async (key) => {
    const res = await call('POST', `${proc.url}/send-batch`, key, { message: 'Your parcel is on its way', recipients: Array.from({ length: BATCH_SIZE }, () => recipient()) });
    if (res.json.recipients_queued !== BATCH_SIZE) throw new Error(`batch failed: ${JSON.stringify(res.json)}`);
  }));
  await acknowledgedAll(BATCHES * BATCH_SIZE, 'full rate');
  figure('receipts-full', BATCHES * BATCH_SIZE, from, started, resent);

  // Baseline in the same run: a steady, light load.
  const key = await account(BATCHES);
  from = smsc.latenciesMs.length;
  resent = smsc.resent();
  const before = smsc.acknowledged();
  started = performance.now();
  const sends: Array<Promise<void>> = [];
  for (let i = 0; i < STEADY; i++) {
    const wait = started + (i * 1000) / STEADY_RPS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sends.push(call('POST', `${proc.url}/send`, key, { to: recipient(), message: 'Your code is 123456' }).then((res) => {
      if (res.status !== 200) throw new Error(`send: ${res.status} ${JSON.stringify(res.json)}`);
    }));
  }
  await Promise.all(sends);
  await acknowledgedAll(before + STEADY, 'steady');
  figure('receipts-steady', STEADY, from, started, resent);
} finally {
  await proc.stop();
  await smsc.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
