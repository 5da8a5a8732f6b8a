// POST /send across 100 accounts and POST /send-batch with 1,000 recipients, against a real `tasman start`
// (API role only) in a child process; on PostgreSQL also the bare INSERT ceiling in the same run.
// Usage: DATABASE_URL=postgres://… npx tsx bench/send.ts   (unset: the embedded PostgreSQL in a temporary directory)
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { request } from 'undici';
import { benchSetup, startTasmanProcess } from './tasman-process.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = 50;
const { databaseUrl, dataDir, print } = benchSetup('send');

async function json(method: string, url: string, token: string, body?: unknown) {
  const res = await request(url, { method: method as 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return res.body.json() as Promise<Record<string, unknown>>;
}

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}

const proc = await startTasmanProcess({
  DATA_DIR: dataDir, TASMAN_ROLES: 'api', LOG_LEVEL: 'info', RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl, TASMAN_ADMIN_TOKEN: 'bench-admin' } : {}),
});
try {
  const token = databaseUrl ? 'bench-admin' : readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
  const keys: string[] = [];
  for (let i = 0; i < 100; i += 1) {
    const created = await json('POST', `${proc.url}/admin/accounts`, token, { business_name: `Bench ${i}`, email: `bench${i}@example.com`, credits: 10_000_000 });
    keys.push(created.api_key as string);
  }
  let n = 0;
  const recipient = () => `+614${String(10_000_000 + (n++ % 89_999_999)).slice(-8)}`;

  const sendRound = () => run({
    url: `${proc.url}/send`, connections, duration: seconds, method: 'POST',
    requests: [{
      setupRequest: (req) => ({
        ...req,
        headers: { authorization: `Bearer ${keys[n % keys.length]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: recipient(), message: 'Your order has shipped' }),
      }),
    }],
  });

  if (!databaseUrl) {
    const send = await sendRound();
    print({ bench: 'send', requests_per_s: send.requests.average, p50_ms: send.latency.p50, p99_ms: send.latency.p99, non2xx: send.non2xx, errors: send.errors });
  } else {
    const bare = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bare-server.ts')], { env: { ...process.env }, stdio: ['ignore', 'pipe', 'inherit'] });
    const bareUrl = await new Promise<string>((resolve) => bare.stdout!.on('data', (d: Buffer) => {
      const line = d.toString().split('\n').find((l) => l.includes('bare started'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    }));
    const ceilingRound = () => run({
      url: `${bareUrl}/insert`, connections, duration: seconds, method: 'POST',
      requests: [{ setupRequest: (req) => ({ ...req, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: recipient(), message: 'Your order has shipped' }) }) }],
    });
    // Interleaved rounds, so a slow spell on the shared machine lands on both sides of the ratio.
    const sends: autocannon.Result[] = [];
    const ceilings: autocannon.Result[] = [];
    for (let round = 0; round < rounds; round += 1) {
      sends.push(await sendRound());
      ceilings.push(await ceilingRound());
    }
    bare.kill('SIGTERM');
    const mean = (rs: autocannon.Result[], f: (r: autocannon.Result) => number) => Number((rs.reduce((sum, r) => sum + f(r), 0) / rs.length).toFixed(1));
    print({ bench: 'send', rounds, requests_per_s: mean(sends, (r) => r.requests.average), p50_ms: mean(sends, (r) => r.latency.p50), p99_ms: mean(sends, (r) => r.latency.p99), non2xx: sends.reduce((s, r) => s + r.non2xx, 0), errors: sends.reduce((s, r) => s + r.errors, 0) });
    print({ bench: 'bare-insert-ceiling', rounds, requests_per_s: mean(ceilings, (r) => r.requests.average), p50_ms: mean(ceilings, (r) => r.latency.p50), p99_ms: mean(ceilings, (r) => r.latency.p99) });
    print({ bench: 'send-vs-ceiling', ratio: Number((mean(sends, (r) => r.requests.average) / mean(ceilings, (r) => r.requests.average)).toFixed(3)) });
  }

  const batchLatencies: number[] = [];
  const recipients = () => Array.from({ length: 1000 }, (_, i) => ({ phone: recipient(), merge_data: { name: `Customer ${i}` } }));
  for (let i = 0; i < 30; i += 1) {
    const body = { message: 'Hi {{name}}, your order has shipped', recipients: recipients() };
    const started = performance.now();
    const res = await json('POST', `${proc.url}/send-batch`, keys[i % keys.length]!, body);
    if (res.recipients_queued !== 1000) throw new Error(`batch failed: ${JSON.stringify(res)}`);
    batchLatencies.push(performance.now() - started);
  }
  batchLatencies.sort((a, b) => a - b);
  const pct = (p: number) => Number(batchLatencies[Math.min(batchLatencies.length - 1, Math.floor(p * batchLatencies.length))]!.toFixed(1));
  print({ bench: 'send-batch-1000', runs: batchLatencies.length, p50_ms: pct(0.5), p99_ms: pct(0.99) });
} finally {
  await proc.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
