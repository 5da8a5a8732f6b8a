// How busy the rest of the machine was while a benchmark ran: this 2-core machine is shared, and the bench lock
// keeps other benchmarks out but not other users' test suites and builds (they have taken 0.6–1.4
// cores during Kannel's rounds). Read from /proc/stat (Linux), less the CPU of the processes the bench measures.
import { readFileSync } from 'node:fs';
import { cpuByPid } from './proc-stats.ts';

/** CPU milliseconds of the whole machine (all cores) since boot: busy, and stolen by the host. */
function machineMs(): { busy: number; steal: number } {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { busy: (user! + nice! + system! + irq! + softirq!) * 10, steal: steal! * 10 };
}

/**
 * Starts a reading; the returned function gives, since then, the cores the rest of the machine kept busy
 * (`foreign_cores`: all busy CPU less the bench's own, from `ours()`: CPU milliseconds by pid of the processes the
 * bench measures, read at both ends), the cores the host stole, and the 1-minute load average. Ours is summed
 * per pid and never below zero: a process that ends during the round (a pooled PostgreSQL connection closing)
 * reads 0 at the end, which summed as totals took its whole lifetime's CPU off ours and counted it as other load.
 * A pid new at the end (a connection opened during the round) counts whole; processes that come and go during
 * the round belong in a `comingAndGoing` reading, which keeps the CPU of those that ended.
 */
export function machineLoad(ours: () => Map<number, number>) {
  const [before, oursBefore, t0] = [machineMs(), ours(), Date.now()];
  return () => {
    const oursAfter = ours();
    const now = machineMs();
    const cores = (ms: number) => Math.round((ms / (Date.now() - t0)) * 100) / 100;
    let oursMs = 0;
    for (const [pid, ms] of oursAfter) oursMs += Math.max(0, ms - (oursBefore.get(pid) ?? 0));
    return {
      foreign_cores: cores(now.busy - before.busy - oursMs), steal_cores: cores(now.steal - before.steal),
      loadavg: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
    };
  };
}

/**
 * The CPU of processes that come and go, such as the PostgreSQL backends of the bench's databases: `list` names the
 * current ones, and every `everyMs` each is read from /proc. A backend that exits (a pooled connection closing
 * mid-round) can no longer be read, so its last reading is kept: `readings()` still holds its CPU up to then,
 * which a round counts as ours rather than as other load. A connection that closes on a pool's idle timeout did
 * no work since that reading, so nothing is lost; only one opened and closed between two readings is missed.
 * `sample()` reads at once (call it at both ends of a round); `stop()` ends the timer.
 */
export function comingAndGoing(list: () => Promise<number[]>, everyMs = 100) {
  const last = new Map<number, number>();
  let running: Promise<void> | null = null;
  const sample = () => (running ??= (async () => {
    try {
      // A gone pid reads 0: CPU only grows for a live one, so the larger reading is the last real one.
      for (const [pid, ms] of cpuByPid(await list())) last.set(pid, Math.max(ms, last.get(pid) ?? 0));
    } finally {
      running = null;
    }
  })());
  const timer = setInterval(() => { sample().catch(() => { /* the next reading tries again */ }); }, everyMs);
  timer.unref();
  return { sample, readings: () => new Map(last), stop: () => clearInterval(timer) };
}
