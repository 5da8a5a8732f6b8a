// Scheduled sending at scale against a real `tasman start` (API + workers + built-in SMSC, receipts on,
// SIM_DLR_DELAY_MS=0, SMPP_WINDOW=100). Each phase schedules BENCH_DUE (100,000) messages an hour ahead with
// POST /send-batch on a fresh account, then makes all of them due in one instant, in one of two ways:
//  - `scheduled`: one UPDATE of scheduled_at to now(); the scheduler releases them (1,000 per statement) and the
//    dispatcher sends them: the path being measured;
//  - `queued` (the baseline): one UPDATE straight to `queued` plus the dispatcher's NOTIFY, skipping the scheduler:
//    the pipeline's normal rate for the same backlog in the same process.
// Phases alternate (queued, scheduled, scheduled, queued, …) over BENCH_ROUNDS (2) pairs, so drift on a shared
// machine falls on both. Figures per phase: schedule_release (seconds until none is `scheduled`; scheduled only)
// and drain (seconds until every one is accepted by the SMSC, `sent_at` set); then the medians and their ratio.
// Usage: DATABASE_URL=postgres://…/an_empty_database npx tsx bench/schedule-drain.ts   (one JSON line per figure)
import pg from 'pg';
import { benchSetup, call, deliverableRecipients, startTasmanProcess } from './tasman-process.ts';

const DUE = Number(process.env.BENCH_DUE ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BATCH = 1000;
const { databaseUrl, dataDir, print } = benchSetup('schedule-drain');
if (!databaseUrl) {
  process.stderr.write('bench/schedule-drain.ts moves scheduled_at with SQL: set DATABASE_URL to an empty PostgreSQL database\n');
  process.exit(2);
}

const recipient = deliverableRecipients();
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const proc = await startTasmanProcess({
  DATA_DIR: dataDir, LOG_LEVEL: 'info', SIM_DLR_DELAY_MS: '0', SMPP_WINDOW: '100', DATABASE_URL: databaseUrl,
  TASMAN_ADMIN_TOKEN: 'bench-admin', RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000',
});
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const count = async (where: string, accountId: string) =>
  Number((await pool.query(`select count(*)::int as n from messages where account_id = $1 and ${where}`, [accountId])).rows[0].n);

type Way = 'queued' | 'scheduled';

/** One phase: DUE messages scheduled an hour ahead, made due at once by `way`; returns the drain rate. */
async function phase(way: Way, round: number): Promise<number> {
  const created = await call('POST', `${proc.url}/admin/accounts`, 'bench-admin', { business_name: `Drain ${way} ${round}`, email: `drain-${way}-${round}@example.com`, credits: DUE * 2 });
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
  if (way === 'scheduled') {
    await pool.query(`update messages set scheduled_at = now() where account_id = $1 and status = 'scheduled'`, [accountId]);
  } else {
    await pool.query(`update messages set status = 'queued', next_attempt_at = now() where account_id = $1 and status = 'scheduled'`, [accountId]);
    await pool.query(`notify tasman_messages_queued`);
  }
  let releasedAt: number | null = way === 'queued' ? t0 : null;
  for (;;) {
    if (releasedAt === null && (await count(`status = 'scheduled'`, accountId)) === 0) {
      releasedAt = performance.now();
      print({ bench: 'schedule_release', round, messages: DUE, seconds: Number(((releasedAt - t0) / 1000).toFixed(2)) });
    }
    if ((await count('sent_at is null', accountId)) === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - t0) / 1000;
  const perSecond = Math.round(DUE / seconds);
  print({ bench: `drain_${way}`, round, messages: DUE, seconds: Number(seconds.toFixed(2)), per_second: perSecond });
  return perSecond;
}

try {
  const rates: Record<Way, number[]> = { queued: [], scheduled: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order: Way[] = round % 2 === 0 ? ['queued', 'scheduled'] : ['scheduled', 'queued'];
    for (const way of order) rates[way].push(await phase(way, round));
  }
  const [q, s] = [median(rates.queued), median(rates.scheduled)];
  print({ bench: 'schedule_drain', messages: DUE, rounds: ROUNDS, queued_median_per_second: q, scheduled_median_per_second: s, ratio: Number((s / q).toFixed(2)) });
} finally {
  await pool.end();
  await proc.stop();
}
