// Tasman against Debian's Kannel 1.4.5 (bearerbox + smsbox, spool store, HTTP sendsms → SMPP, window 100) on
// loopback, both bound to ONE SMSC simulator (`tasman simulator` in its own process, receipts at once), in
// alternating rounds (Kannel first in even rounds, Tasman first in odd ones), with 100 keys and with 1 key.
// Per round and system:
//  - accept rate: N requests (CONNECTIONS at a time; Tasman POST /send, Kannel GET /cgi-bin/sendsms), first
//    request → last answer; p99 of each request's answer time;
//  - end-to-end rate: first request → the last delivery callback for the round (Tasman's `message.dlr` webhook,
//    Kannel's dlr-url with dlr-mask 1, both to a receiver in this process);
//  - CPU per message: user + system time over the round of Tasman's process tree plus the PostgreSQL backends of
//    its database, against bearerbox + smsbox;
//  - memory at rest: resident set of Tasman's process tree (the node process(es); PostgreSQL's shared buffers are
//    not counted) against bearerbox + smsbox, read before each round when the previous one is finished.
// One JSON line per round (the two systems and their ratios, Tasman / Kannel, the rest of the machine's load
// during each system's round: `machine`, bench/machine-load.ts, and Tasman's database work per message over its
// prime and round: `tasman_database`, bench/db-counters.ts; its WAL is the whole cluster's, so Tasman's alone only
// on a PostgreSQL server nothing else writes to) and one per key count with the medians of the
// per-round ratios.
// Usage: createdb -h 127.0.0.1 -U postgres bench_kannel;
//   flock /tmp/tasman-bench.lock env DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_kannel npx tsx bench/kannel.ts
// Knobs: BENCH_ROUNDS (11), BENCH_MESSAGES (20000), BENCH_CONNECTIONS (50), BENCH_KEYS ("100,1"),
// BENCH_PRIME (1000): an unreported round of that many messages on Tasman (and the floor) right before each of its
// measured rounds (e2e.ts primedRound; a fresh Kannel has its own warm-up), 0 for none;
// BENCH_FLOOR (0): 1 adds a third system, the stack's floor (bench/floor-server.ts: a durable /send with a delivery
// callback and none of Tasman's work), with its ratios to Kannel and Tasman's to it in each round's line; smpp adds
// the SMPP submit and receipt with one status write per message to that floor;
// KANNEL_DIR (below), KANNEL_FRESH (1): Kannel is restarted on an empty spool (and warmed up again) before each of its rounds, because
// one Kannel slows from round to round (2,252 → 1,699 → 1,087 accepts/s in three rounds; alone on the machine, 2,144 → 2,219 → 1,495
// with bearerbox's CPU per message 0.27 → 0.49 → 0.91 ms), which made the
// medians flatter Tasman; 0 keeps one Kannel for the whole run. Tasman's rates stay level over a run, so it keeps
// its one process (a restart would only add JIT warm-up).
// Interrupted by SIGINT or SIGTERM it stops Tasman, Kannel and the simulator before exiting. Ctrl-C reaches it
// through npx; a SIGTERM sent to npx from elsewhere is not passed on (npm exec): signal the bench's own node
// process (`pgrep -f 'loader.mjs bench/kannel.ts'`), or run it as `node --import tsx bench/kannel.ts`.
import { rmSync } from 'node:fs';
import pg from 'pg';
import { kannelSystem, startKannel, type Kannel } from './kannel-setup.ts';
import { primedRound, runRound, startCallbackReceiver, tasmanSystem, type CallbackReceiver, type RoundResult, type System } from './e2e.ts';
import { startFloor } from './floor.ts';
import { comingAndGoing, machineLoad } from './machine-load.ts';
import { pipelineDrained, perMessage, settledCounters } from './db-counters.ts';
import { tree } from './proc-stats.ts';
import { geomean, median, round2 } from './stats.ts';
import { benchSetup, type BenchProcess, deliverableRecipients, startSimulatorProcess, startTasmanProcess } from './tasman-process.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KEY_COUNTS = (process.env.BENCH_KEYS ?? '100,1').split(',').map(Number);
const FLOOR = process.env.BENCH_FLOOR === '1' || process.env.BENCH_FLOOR === 'smpp';
const PRIME = Number(process.env.BENCH_PRIME ?? 1000);
const TEXT = 'Your order has shipped';
const { databaseUrl, dataDir, print } = benchSetup('kannel');
if (!databaseUrl) throw new Error('bench/kannel.ts compares Tasman on PostgreSQL: set DATABASE_URL to an empty database');

// KANNEL_DIR: where Kannel's configuration, logs and spool go (default: in the bench's data directory, on the
// root filesystem). On this machine's ext4 a spool that creates and deletes a file per message makes each later
// create dearer (bench/kannel-alone.ts shows it); KANNEL_DIR=/dev/shm/... (tmpfs) measures Kannel without it.
const kannelDir = process.env.KANNEL_DIR ?? `${dataDir}/kannel`;
if (process.env.KANNEL_DIR) rmSync(kannelDir, { recursive: true, force: true });
const recipient = deliverableRecipients();
const receiver = await startCallbackReceiver();

// Everything started is stopped in `finally`, also when a later start fails.
const cleanup: Array<() => Promise<unknown> | unknown> = [
  () => receiver.close(), () => rmSync(dataDir, { recursive: true, force: true }), () => rmSync(kannelDir, { recursive: true, force: true }),
];
async function started<T>(start: Promise<T>, stop: (it: T) => Promise<unknown> | unknown): Promise<T> {
  const it = await start;
  cleanup.unshift(() => stop(it));
  return it;
}
let stopping: Promise<void> | null = null;
const stopAll = () => (stopping ??= (async () => {
  for (const stop of cleanup.splice(0)) await Promise.resolve().then(stop).catch(() => {});
})());
/** Every process this bench started and has not reaped (also one still starting, not yet in `cleanup`). */
const killChildren = (signal: NodeJS.Signals) => {
  for (const { pid } of tree([process.pid])) {
    if (pid !== process.pid) try { process.kill(pid, signal); } catch { /* gone */ }
  }
};
// Interrupted (Ctrl-C, a timeout's SIGTERM, flock's caller going away): stop Tasman, Kannel and the simulator as
// `finally` would, and whatever is still starting; after 20 s, kill what is left.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`bench/kannel.ts: ${signal}, stopping the processes it started\n`);
    setTimeout(() => { killChildren('SIGKILL'); process.exit(1); }, 20_000);
    void stopAll().finally(() => { killChildren('SIGTERM'); process.exit(signal === 'SIGINT' ? 130 : 143); });
  });
}

/** Tasman (its accounts with their delivery webhooks on the receiver) and Kannel as the rounds drive them. */
async function setUp(kannel: { current: Kannel }, tasman: BenchProcess, db: pg.Client, callbacks: CallbackReceiver, smscPort: number): Promise<System[]> {
  const t = await tasmanSystem({ name: 'tasman', proc: tasman, db, receiver: callbacks, keyCount: Math.max(...KEY_COUNTS), connections: CONNECTIONS, recipient, text: TEXT });
  cleanup.unshift(() => t.close());
  // This machine's PostgreSQL runs with autovacuum off (its CI configuration): vacuum Tasman's database before
  // each of its rounds as autovacuum would on a production server, or each round's claims walk the dead queue
  // index entries of every round before it (docs/decisions/0039-queue-tables-vacuumed-early.md).
  t.system.beforeRound = () => db.query('vacuum (analyze)');
  const k = kannelSystem(() => kannel.current, () => callbacks, { connections: CONNECTIONS, recipient, text: TEXT });
  cleanup.unshift(() => k.close());
  if (!FLOOR) return [t.system, k.system];
  const f = await startFloor(databaseUrl!, callbacks, { connections: CONNECTIONS, recipient, text: TEXT, ...(process.env.BENCH_FLOOR === 'smpp' ? { smscPort } : {}) });
  cleanup.unshift(() => f.close());
  return [t.system, k.system, f.system];
}

try {
  const sim = await started(startSimulatorProcess(), (it) => it.child.kill('SIGTERM'));
  const kannelUsers = Array.from({ length: Math.max(...KEY_COUNTS) }, (_, i) => `k${i}`);
  const kannel = { current: await startKannel(kannelDir, sim.port, kannelUsers) };
  cleanup.unshift(() => kannel.current.stop());
  const tasman = await started(startTasmanProcess({
    DATA_DIR: dataDir, DATABASE_URL: databaseUrl, TASMAN_ADMIN_TOKEN: 'bench-admin', TASMAN_SIMULATOR: 'false',
    // Tasman's own default process count (config.ts defaultApiProcesses) unless TASMAN_WORKERS says otherwise; the
    // test helper under startTasmanProcess would otherwise run one process.
    TASMAN_WORKERS: process.env.TASMAN_WORKERS ?? '',
    SMPP_HOST: '127.0.0.1', SMPP_PORT: String(sim.port), SMPP_WINDOW: '100', LOG_LEVEL: 'info',
    RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000', WEBHOOK_ALLOW_PRIVATE: 'true',
  }), (it) => it.stop());
  const db = await started((async () => { const c = new pg.Client({ connectionString: databaseUrl }); await c.connect(); return c; })(), (c) => c.end());
  const systems = await setUp(kannel, tasman, db, receiver, sim.port);
  // The backends of Tasman's database and the floor's (floor.ts names it after Tasman's), and of this watcher,
  // read all run long (machine-load.ts comingAndGoing). It connects to the `postgres` database so that its
  // queries stay out of Tasman's statement counts.
  const watcher = await started((async () => {
    const url = new URL(databaseUrl);
    const names = [url.pathname.slice(1), `${url.pathname.slice(1)}_floor`];
    url.pathname = '/postgres';
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    return { c, names };
  })(), ({ c }) => c.end());
  const backendCpu = comingAndGoing(async () => (await watcher.c.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = any($1) or pid = pg_backend_pid()', [watcher.names])).rows.map((r) => r.pid));
  cleanup.unshift(() => backendCpu.stop());
  const harnessPids = [process.pid, sim.child.pid!];
  const warmUp = (s: System, tag: string, messages = 2000) => runRound(receiver, s, { keys: 1, messages: Math.min(messages, MESSAGES), connections: CONNECTIONS, tag, harnessPids });
  // warm-up (not reported): JIT, connection pools, SMPP windows
  for (const s of systems) await warmUp(s, `w-${s.name}`);
  const FRESH = process.env.KANNEL_FRESH !== '0';
  let kannelRounds = 0;
  /** A new bearerbox + smsbox on an empty spool, bound and warmed up as the first one was. */
  const freshKannel = async (tag: string) => {
    if (!FRESH || kannelRounds++ === 0) return;
    await kannel.current.stop();
    rmSync(kannelDir, { recursive: true, force: true });
    kannel.current = await startKannel(kannelDir, sim.port, kannelUsers);
    // Short: a C process has no JIT to warm, and one Kannel slows with every message it has handled (bearerbox's
    // CPU per message 0.27 → 0.49 → 0.91 ms over three rounds of 5,000 in one process, measured with Kannel alone).
    await warmUp(systems[1]!, `w-${tag}`, 500);
  };
  for (const keys of KEY_COUNTS) {
    const ratios: Record<string, number[]> = { accept: [], e2e: [], p99: [], cpu: [], rss: [], floor_accept: [], floor_e2e: [], floor_cpu: [], of_floor_accept: [], of_floor_e2e: [] };
    const tasmanRuns: RoundResult[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Kannel first in even rounds, Tasman in odd ones; the floor, when run, takes each place in turn.
      const order = round % 2 === 0 ? [systems[1]!, systems[0]!] : [systems[0]!, systems[1]!];
      if (systems[2]) order.splice(round % 3, 0, systems[2]);
      const out: Record<string, RoundResult> = {};
      const machine: Record<string, ReturnType<ReturnType<typeof machineLoad>>> = {};
      let database: Record<string, unknown> = {};
      for (const s of order) {
        const tag = `${keys}-${round}-${s.name}`;
        if (s.name === 'kannel') await freshKannel(tag);
        await s.beforeRound?.();
        // The rest of the machine's load during the round (others' tests are not under the bench lock): Kannel's
        // rate follows it more than Tasman's (decision 0052). Every system's database backends are the bench's
        // own, not the rest of the machine, also those that close during the round.
        const ours = () => new Map([...tree([process.pid]).map((p) => [p.pid, p.cpuMs] as const), ...backendCpu.readings()]);
        // Tasman's database work over the prime and the round, per message (bench/db-counters.ts), from a reading
        // taken once the vacuum above and everything before it are counted.
        const counted = s.name === 'tasman' ? await settledCounters(db) : null;
        await backendCpu.sample();
        const load = machineLoad(ours);
        // Each round starts as the system's own second (e2e.ts primedRound); a fresh Kannel had its warm-up already.
        const prime = s.name === 'kannel' && FRESH ? 0 : PRIME;
        out[s.name] = await primedRound(receiver, s, { keys, messages: MESSAGES, connections: CONNECTIONS, tag, harnessPids, prime });
        await backendCpu.sample();
        machine[s.name] = load();
        if (counted) {
          await pipelineDrained(db);
          const messages = MESSAGES + Math.min(prime, MESSAGES);
          database = Object.fromEntries(perMessage(counted, await settledCounters(db), messages).map(({ figure, ...rest }) => [figure as string, rest]));
        }
      }
      const t = out.tasman!;
      const k = out.kannel!;
      tasmanRuns.push(t);
      const ratio = {
        accept: round2(t.accept_per_s / k.accept_per_s), e2e: round2(t.e2e_per_s / k.e2e_per_s),
        p99: round2(t.p99_ms / k.p99_ms), cpu: round2(t.cpu_ms_per_msg / k.cpu_ms_per_msg), rss: round2(t.rss_mb / k.rss_mb),
      };
      const f = out.floor;
      if (f) {
        Object.assign(ratio, {
          floor_accept: round2(f.accept_per_s / k.accept_per_s), floor_e2e: round2(f.e2e_per_s / k.e2e_per_s), floor_cpu: round2(f.cpu_ms_per_msg / k.cpu_ms_per_msg),
          of_floor_accept: round2(t.accept_per_s / f.accept_per_s), of_floor_e2e: round2(t.e2e_per_s / f.e2e_per_s),
        });
      }
      for (const [name, v] of Object.entries(ratio)) ratios[name]!.push(v);
      print({ bench: 'kannel-round', keys, round, fresh_kannel: FRESH, first: order[0]!.name, messages: MESSAGES, tasman: t, kannel: k, ...(f ? { floor: f } : {}), ratio, machine, tasman_database: database });
    }
    print({
      bench: 'kannel-median', keys, rounds: ROUNDS, fresh_kannel: FRESH, messages: MESSAGES, connections: CONNECTIONS,
      accept_ratio: median(ratios.accept!), e2e_ratio: median(ratios.e2e!), p99_ratio: median(ratios.p99!),
      cpu_ratio: median(ratios.cpu!), rss_ratio: median(ratios.rss!),
      accept_geomean: geomean(ratios.accept!), e2e_geomean: geomean(ratios.e2e!), prime: PRIME,
      tasman_p99_ms_median: median(tasmanRuns.map((r) => r.p99_ms)),
      ...(FLOOR ? {
        floor_accept_ratio: median(ratios.floor_accept!), floor_e2e_ratio: median(ratios.floor_e2e!), floor_cpu_ratio: median(ratios.floor_cpu!),
        of_floor_accept: median(ratios.of_floor_accept!), of_floor_e2e: median(ratios.of_floor_e2e!),
      } : {}),
    });
  }
} finally {
  await stopAll();
}
