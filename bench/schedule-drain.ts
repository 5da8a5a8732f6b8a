// Scheduled sending at scale against a real `tasman start` (API + workers + built-in SMSC, receipts on,
// SIM_DLR_DELAY_MS=0, SMPP_WINDOW=100): BENCH_DUE (100,000) messages are scheduled an hour ahead with
// POST /send-batch, then all made due in the same instant (one UPDATE of scheduled_at), and the bench times
//  - schedule_release: until none is `scheduled` any more (the scheduler's releases, 1,000 per statement);
//  - schedule_drain: until every one has been accepted by the SMSC (`sent_at` set), as messages per second,
//    to compare with pipeline-batch (bench/pipeline.ts), the pipeline's normal rate.
// Usage: DATABASE_URL=postgres://…/an_empty_database npx tsx bench/schedule-drain.ts   (one JSON line per figure)
import pg from 'pg';
import { benchSetup, call, deliverableRecipients, startTasmanProcess } from './tasman-process.ts';

const DUE = Number(process.env.BENCH_DUE ?? 100_000);
const BATCH = 1000;
const { databaseUrl, dataDir, print } = benchSetup('schedule-drain');
if (!databaseUrl) {
  process.stderr.write('bench/schedule-drain.ts moves scheduled_at with SQL: set DATABASE_URL to an empty PostgreSQL database\n');
  process.exit(2);
}


const recipient = deliverableRecipients();

const proc = await startTasmanProcess({
  DATA_DIR: dataDir, LOG_LEVEL: 'info', SIM_DLR_DELAY_MS: '0', SMPP_WINDOW: '100', DATABASE_URL: databaseUrl,
  TASMAN_ADMIN_TOKEN: 'bench-admin', RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
});
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const count = async (where: string, accountId: string) =>
  Number((await pool.query(`select count(*)::int as n from messages where account_id = $1 and ${where}`, [accountId])).rows[0].n);

try {
  const created = await call('POST', `${proc.url}/admin/accounts`, 'bench-admin', { business_name: 'Drain', email: 'drain@example.com', credits: DUE * 2 });
  if (created.status !== 201) throw new Error(`account: ${JSON.stringify(created.json)}`);
  const key = created.json.api_key as string;
  const accountId = created.json.account_id as string;
  const sendAt = new Date(Date.now() + 3_600_000).toISOString();
  for (let sent = 0; sent < DUE; sent += BATCH) {
    const size = Math.min(BATCH, DUE - sent);
    const res = await call('POST', `${proc.url}/send-batch`, key, { recipients: Array.from({ length: size }, recipient), message: 'Your appointment is tomorrow at 9', send_at: sendAt });
    if (res.status !== 200) throw new Error(`send-batch: ${res.status} ${JSON.stringify(res.json)}`);
  }
  const t0 = performance.now();
  await pool.query(`update messages set scheduled_at = now() where account_id = $1 and status = 'scheduled'`, [accountId]);
  let releasedAt: number | null = null;
  for (;;) {
    if (releasedAt === null && (await count(`status = 'scheduled'`, accountId)) === 0) {
      releasedAt = performance.now();
      print({ bench: 'schedule_release', messages: DUE, seconds: Number(((releasedAt - t0) / 1000).toFixed(2)) });
    }
    if ((await count('sent_at is null', accountId)) === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - t0) / 1000;
  print({ bench: 'schedule_drain', messages: DUE, seconds: Number(seconds.toFixed(2)), per_second: Math.round(DUE / seconds) });
} finally {
  await pool.end();
  await proc.stop();
}
