// The database failover trial (opt-in, not in npm test; run as root on a machine with Debian's
// postgresql-15-auto-failover): `npx tsx bench/failover.ts`.
//
// A pg_auto_failover formation on loopback (bench/failover-cluster.ts: a monitor, a primary and a synchronous
// standby), Tasman (`tasman start`, an API process and a workers process) with both hosts in DATABASE_URL, and the
// tests' receipt SMSC (npm `smpp`), which counts the submits it accepted per recipient. Senders post `/send` with
// an Idempotency-Key each and retry the same request on 503, 409 idempotency_in_flight or a dropped connection.
// Once both nodes are healthy and the load is steady, the primary node dies whole (its keeper and PostgreSQL,
// SIGKILL); the load goes on through the failover, the dead node is started again (it must come back as a
// standby, never written to), and the load stops. Then every message must be final.
//
// Knobs: BENCH_PORT (first of three ports, default 55400), BENCH_SENDERS (8), BENCH_KILL_AFTER_S (10),
// BENCH_AFTER_S (load after accepting again, 15).
// Prints JSON lines: `formation` (sync standby names, monitor settings), `kill`, `rejoined`, and `figures`:
// acknowledged, acknowledged_lost (must be 0), replayed_after_503 (answered 503 or cut off, yet committed: the
// retry was replayed from the Idempotency-Key), stored, credits_exact, duplicates_submitted,
// seconds_to_new_primary (monitor), seconds_to_accepting (kill → first 200 of a request sent after the kill;
// target under 30), http_503, http_500 (must be 0), dropped_connections.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { startProcess } from '../test/support/process.ts';
import { startReceiptSmsc } from '../test/support/receipt-smsc.ts';
import { MONITOR_SETTINGS, NETWORK_PARTITION_TIMEOUT_S, query, startFormation, until } from './failover-cluster.ts';

const PORT = Number(process.env.BENCH_PORT ?? 55_400);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 8);
const KILL_AFTER_S = Number(process.env.BENCH_KILL_AFTER_S ?? 10);
const AFTER_S = Number(process.env.BENCH_AFTER_S ?? 15);
const ADMIN = 'failover-trial-admin';
const CREDITS = 1_000_000;
const print = (obj: object) => console.log(JSON.stringify(obj));

const formation = await startFormation(PORT);
const smsc = await startReceiptSmsc({ window: 100 });
const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-failover-trial-'));
const hosts = formation.ports.map((p) => `127.0.0.1:${p}`).join(',');
const urlOf = (port: number) => `postgres://postgres@127.0.0.1:${port}/tasman`;
let tasman: Awaited<ReturnType<typeof startProcess>> | null = null;
try {
  const [sync] = await query<{ s: string }>(urlOf(formation.ports[0]!), `select current_setting('synchronous_standby_names') as s`);
  print({ formation: await formation.state(), synchronous_standby_names: sync!.s, monitor: MONITOR_SETTINGS, network_partition_timeout_s: NETWORK_PARTITION_TIMEOUT_S });
  tasman = await startProcess({
    DATABASE_URL: `postgres://postgres@${hosts}/tasman`, DATA_DIR: dataDir, TASMAN_ADMIN_TOKEN: ADMIN, TASMAN_WORKERS: '1',
    TASMAN_SIMULATOR: 'false', SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port),
    RATE_LIMIT_RPS: '100000', RATE_LIMIT_CONCURRENCY: '10000',
  });
  const base = tasman.url;
  const created = await post(`${base}/admin/accounts`, ADMIN, { business_name: 'Failover Trial', email: 'failover@example.com', credits: CREDITS });
  const key = created.json.api_key as string;
  const accountId = created.json.account_id as string;

  const counts = { http_503: 0, http_500: 0, dropped_connections: 0, in_flight_409: 0 };
  const acknowledged = new Map<string, { replayed: boolean; troubled: boolean }>();
  let killAt = 0;
  let firstAcceptAfterKill = 0;
  let sending = true;
  let n = 0;
  const sender = async () => {
    while (sending) {
      const idempotencyKey = randomUUID();
      const to = `+614${String(30_000_000 + n++)}`;
      let troubled = false;
      for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
        const startedAt = Date.now();
        const res = await post(`${base}/send`, key, { to, message: `Failover trial ${to}` }, { 'idempotency-key': idempotencyKey }).catch(() => null);
        if (res === null) counts.dropped_connections += 1;
        else if (res.status === 200) {
          acknowledged.set(res.json.message_id as string, { replayed: res.replayed, troubled });
          if (killAt > 0 && startedAt > killAt && firstAcceptAfterKill === 0) firstAcceptAfterKill = Date.now();
          break;
        } else if (res.status === 503) counts.http_503 += 1;
        else if (res.status === 409 && res.json.code === 'idempotency_in_flight') counts.in_flight_409 += 1;
        else if (res.status === 500) counts.http_500 += 1;
        else throw new Error(`unexpected answer ${res.status}: ${JSON.stringify(res.json)}`);
        troubled = true;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  };
  const senders = Array.from({ length: SENDERS }, () => sender());

  await new Promise((r) => setTimeout(r, KILL_AFTER_S * 1000));
  await until(async () => (await formation.state()).map((s) => s.reported).sort().join() === 'primary,secondary', 'both nodes healthy', 60_000);
  const primary = (await formation.state()).find((s) => s.reported === 'primary')!;
  const before = acknowledged.size;
  killAt = Date.now();
  formation.kill(primary.name);
  let newPrimaryAt = 0;
  await until(async () => {
    const s = await formation.state();
    if (!newPrimaryAt && s.some((x) => x.name !== primary.name && ['wait_primary', 'primary'].includes(x.reported))) newPrimaryAt = Date.now();
    return newPrimaryAt > 0 && firstAcceptAfterKill > 0;
  }, 'a new primary and Tasman accepting again', 120_000);
  print({ kill: primary.name, acknowledged_before: before, seconds_to_new_primary: (newPrimaryAt - killAt) / 1000, seconds_to_accepting: (firstAcceptAfterKill - killAt) / 1000 });

  // The dead node comes back: pg_auto_failover rewinds it into a standby of the new primary.
  formation.restart(primary.name);
  await until(async () => (await formation.state()).find((s) => s.name === primary.name)?.reported === 'secondary', `${primary.name} back as a standby`, 180_000);
  print({ rejoined: await formation.state() });
  await new Promise((r) => setTimeout(r, AFTER_S * 1000));
  sending = false;
  await Promise.all(senders);

  const writer = (await formation.state()).find((s) => s.reported === 'primary')!;
  const db = urlOf(writer.port);
  const ids = [...acknowledged.keys()];
  await until(async () => {
    const [row] = await query<{ n: number }>(db, `select count(*)::int as n from messages where account_id = $1 and status in ('queued', 'sent')`, [accountId]);
    return row!.n === 0;
  }, 'every message final', 180_000);
  const [found] = await query<{ n: number }>(db, 'select count(*)::int as n from messages where id = any($1::uuid[])', [ids]);
  const [stored] = await query<{ n: number; credits: number }>(db, 'select count(*)::int as n, coalesce(sum(credits), 0)::int as credits from messages where account_id = $1', [accountId]);
  const [balance] = await query<{ credits: number }>(db, 'select credits from accounts where id = $1', [accountId]);
  const ledger = await query<{ delta: number; balance_after: number }>(db, 'select delta, balance_after from credit_ledger where account_id = $1 order by seq', [accountId]);
  let running = 0;
  let walks = true;
  for (const row of ledger) { running += row.delta; if (row.balance_after !== running) walks = false; }
  const duplicates = [...smsc.accepted.values()].reduce((sum, c) => sum + Math.max(0, c - 1), 0);
  const onStandby = await query<{ r: boolean }>(urlOf(formation.ports.find((p) => p !== writer.port)!), 'select pg_is_in_recovery() as r');
  print({
    figures: {
      acknowledged: ids.length,
      acknowledged_lost: ids.length - found!.n,
      replayed_after_503: [...acknowledged.values()].filter((a) => a.replayed && a.troubled).length,
      stored: stored!.n,
      credits_exact: walks && running === balance!.credits && balance!.credits === CREDITS - stored!.credits,
      duplicates_submitted: duplicates,
      seconds_to_new_primary: (newPrimaryAt - killAt) / 1000,
      seconds_to_accepting: (firstAcceptAfterKill - killAt) / 1000,
      ...counts,
      old_primary_in_recovery: onStandby[0]?.r ?? null,
    },
  });
} finally {
  await tasman?.stop('SIGTERM');
  await smsc.stop();
  await formation.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

async function post(url: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(url, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
    headersTimeout: 30_000, bodyTimeout: 30_000,
  });
  return { status: res.statusCode, replayed: res.headers['idempotent-replayed'] === 'true', json: (await res.body.json()) as Record<string, unknown> };
}
