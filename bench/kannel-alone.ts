// Kannel alone (no Tasman, no PostgreSQL) against the SMSC simulator, to answer whether Kannel's
// slowdown from round to round in bench/kannel.ts is its own or the harness's: rounds of BENCH_MESSAGES with
// BENCH_KEYS users, the same configuration, load and receiver as bench/kannel.ts, with each peer restarted or not
// before every round:
//   KANNEL_FRESH (1): bearerbox + smsbox restarted on an empty spool (and warmed up with 500 messages);
//   SIM_FRESH (0): a new `tasman simulator` process (Kannel is then restarted too, to bind to it);
//   RECEIVER_FRESH (0): a new callback receiver (dlr-url) on a new port.
// Per round one JSON line: accepts/s, end-to-end/s, p99, CPU per message of bearerbox, smsbox, the simulator and
// this process (load + receiver), bearerbox's status counters after the round (DLRs still waiting, queues) and the
// threads of bearerbox and smsbox (CPU and context switches per message, the busiest threads), the
// machine's TCP sockets (`ss -s`: established, time-wait), and how many cores the rest of the machine kept busy
// during the round (`foreign_cores`: the machine is shared; the bench lock does not stop others' tests).
// Usage: flock /tmp/tasman-bench.lock npx tsx bench/kannel-alone.ts
// Knobs: BENCH_ROUNDS (5), BENCH_MESSAGES (5000), BENCH_CONNECTIONS (50), BENCH_KEYS (100), BENCH_PAUSE_MS (0: a
// pause after each round), BENCH_PERF_DIR (unset: a `perf record -e cpu-clock -g` of bearerbox over each round,
// written there as bearerbox-<round>.data; read with `perf report -i … --no-children --sort sym`).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { kannelStatus, kannelSystem, startKannel, type Kannel } from './kannel-setup.ts';
import { runRound, startCallbackReceiver, type CallbackReceiver } from './e2e.ts';
import { machineLoad } from './machine-load.ts';
import { cpuByPid, threadCpuMs } from './proc-stats.ts';
import { benchSetup, deliverableRecipients, startSimulatorProcess } from './tasman-process.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KEYS = Number(process.env.BENCH_KEYS ?? 100);
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 0);
const PERF_DIR = process.env.BENCH_PERF_DIR;
if (PERF_DIR) mkdirSync(PERF_DIR, { recursive: true });

/** perf record of one process until the returned function is called (and perf has written its file). */
function perfRecord(pid: number, file: string): () => Promise<void> {
  const perf = spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-F', '999', '-g', '-p', String(pid), '-o', file], { stdio: 'ignore' });
  return () => new Promise((resolve) => { perf.once('exit', () => resolve()); perf.kill('SIGINT'); });
}
const fresh = (name: string, byDefault: boolean) => (process.env[name] ?? (byDefault ? '1' : '0')) !== '0';
const FRESH = { kannel: fresh('KANNEL_FRESH', true), sim: fresh('SIM_FRESH', false), receiver: fresh('RECEIVER_FRESH', false) };
const { dataDir, print } = benchSetup('kannel-alone');
const users = Array.from({ length: KEYS }, (_, i) => `k${i}`);
const recipient = deliverableRecipients();

/** The counters of status.txt that tell where messages wait: DLRs, queues, the store, the SMSC's own queue. */
function statusCounters(text: string) {
  const n = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
  return {
    dlr_waiting: n(/DLR: (\d+) queued/), sms_received_queued: n(/SMS: received \d+ \((\d+) queued\)/),
    sms_sent_queued: n(/sent \d+ \((\d+) queued\)/), store_size: n(/store size (\d+)/),
    smsc_queued: n(/\(online \d+s, rcvd: .*?queued (\d+) msgs\)/),
  };
}

/** Per thread of a process: CPU milliseconds and context switches (voluntary + not), by thread id. */
function threads(pid: number): Map<number, { ms: number; switches: number }> {
  const out = new Map<number, { ms: number; switches: number }>();
  for (const [tid, ms] of threadCpuMs(pid)) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      out.set(tid, { ms, switches: [...status.matchAll(/ctxt_switches:\s+(\d+)/g)].reduce((a, m) => a + Number(m[1]), 0) });
    } catch { /* gone */ }
  }
  return out;
}

/** The busiest threads over a round: CPU and context switches per message, busiest first. */
function threadsPerMsg(before: Map<number, { ms: number; switches: number }>, after: Map<number, { ms: number; switches: number }>) {
  const rows = [...after].map(([tid, a]) => ({ tid, ms: (a.ms - (before.get(tid)?.ms ?? 0)) / MESSAGES, sw: (a.switches - (before.get(tid)?.switches ?? 0)) / MESSAGES }));
  const total = rows.reduce((t, r) => ({ ms: t.ms + r.ms, sw: t.sw + r.sw }), { ms: 0, sw: 0 });
  return {
    threads: rows.length, switches_per_msg: Math.round(total.sw * 100) / 100,
    busiest: rows.sort((a, b) => b.ms - a.ms).slice(0, 4).map((r) => `${r.tid}:${Math.round(r.ms * 1000) / 1000}ms/${Math.round(r.sw * 100) / 100}sw`),
  };
}

function sockets() {
  const text = execFileSync('ss', ['-s'], { encoding: 'utf8' });
  const m = /TCP:\s+(\d+) \(estab (\d+), closed (\d+), orphaned (\d+), timewait (\d+)\)/.exec(text);
  return m ? { tcp: Number(m[1]), estab: Number(m[2]), timewait: Number(m[5]) } : {};
}

let sim: Awaited<ReturnType<typeof startSimulatorProcess>> | null = null;
let receiver: CallbackReceiver | null = null;
let kannel: Kannel | null = null;
const stopSim = async () => {
  if (!sim || sim.child.exitCode !== null) return;
  const exited = new Promise((r) => sim!.child.once('exit', r));
  sim.child.kill('SIGTERM');
  await exited;
};
const stopAll = async () => { await kannel?.stop(); await stopSim(); receiver?.close(); rmSync(dataDir, { recursive: true, force: true }); };
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().finally(() => process.exit(1)));

const k = kannelSystem(() => kannel!, () => receiver!, { connections: CONNECTIONS, recipient, text: 'Your order has shipped' });
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    const setupStart = Date.now();
    const newSim = !sim || FRESH.sim;
    if (!receiver || FRESH.receiver) { receiver?.close(); receiver = await startCallbackReceiver(); }
    if (newSim) { await kannel?.stop(); kannel = null; await stopSim(); sim = await startSimulatorProcess(); }
    if (!kannel || FRESH.kannel) {
      await kannel?.stop();
      rmSync(`${dataDir}/kannel`, { recursive: true, force: true });
      kannel = await startKannel(`${dataDir}/kannel`, sim!.port, users);
      await runRound(receiver, k.system, { keys: 1, messages: 500, connections: CONNECTIONS, tag: `w${round}` });
    }
    const harness = () => cpuByPid([sim!.child.pid!, process.pid]);
    const before = harness();
    const setupS = (Date.now() - setupStart) / 1000;
    const ours = () => cpuByPid([sim!.child.pid!, process.pid, kannel!.bearerbox.pid!, kannel!.smsbox.pid!]);
    const load = machineLoad(ours);
    const bbBefore = threads(kannel.bearerbox.pid!);
    const sbBefore = threads(kannel.smsbox.pid!);
    const perfStop = PERF_DIR ? perfRecord(kannel.bearerbox.pid!, `${PERF_DIR}/bearerbox-${round}.data`) : null;
    const r = await runRound(receiver, k.system, { keys: KEYS, messages: MESSAGES, connections: CONNECTIONS, tag: `r${round}`, harnessPids: [sim!.child.pid!, process.pid] });
    const after = harness();
    const bearerbox = threadsPerMsg(bbBefore, threads(kannel.bearerbox.pid!));
    const smsbox = threadsPerMsg(sbBefore, threads(kannel.smsbox.pid!));
    await perfStop?.();
    // CPU the rest of the machine (other users' tests, builds) took during the round, in cores (of 2).
    const machine = load();
    const perMsg = (pid: number) => Math.round((1000 * ((after.get(pid) ?? 0) - (before.get(pid) ?? 0))) / MESSAGES) / 1000;
    print({
      bench: 'kannel-alone-round', round, fresh: FRESH, messages: MESSAGES, keys: KEYS, connections: CONNECTIONS,
      accept_per_s: r.accept_per_s, e2e_per_s: r.e2e_per_s, p99_ms: r.p99_ms,
      cpu_ms_per_msg: { ...r.cpu_ms_per_msg_by, simulator: perMsg(sim!.child.pid!), bench: perMsg(process.pid) },
      pids: { bearerbox: kannel.bearerbox.pid, smsbox: kannel.smsbox.pid, simulator: sim!.child.pid },
      setup_s: setupS, ...machine,
      bearerbox, smsbox,
      status: statusCounters(await kannelStatus()), sockets: sockets(),
    });
    if (PAUSE_MS) await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
} finally {
  await k.close();
  await stopAll();
}
