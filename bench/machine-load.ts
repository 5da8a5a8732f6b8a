// How busy the rest of the machine was while a benchmark ran: this 2-core machine is shared, and the bench lock
// keeps other benchmarks out but not other users' test suites and builds (they have taken 0.6–1.4
// cores during Kannel's rounds). Read from /proc/stat (Linux), less the CPU of the processes the bench measures.
import { readFileSync } from 'node:fs';

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
 * A pid new at the end (a connection opened during the round) counts whole. `ours` may be given again at the end
 * to add the pids that appeared meanwhile.
 */
export function machineLoad(ours: () => Map<number, number>) {
  const [before, oursBefore, t0] = [machineMs(), ours(), Date.now()];
  return (oursAfter: Map<number, number> = ours()) => {
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
