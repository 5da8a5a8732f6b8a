/**
 * What the primary does when a child process of `tasman start` exits on its own after it was serving: start it
 * again after a short, growing pause, unless it keeps crashing (a fault a restart will not fix, such as a lost
 * database), in which case the whole service stops with a non-zero status and the service manager decides.
 */
export interface CrashPolicy { limit: number; windowMs: number }

export const CRASH_POLICY: CrashPolicy = { limit: 5, windowMs: 60_000 };

export type Verdict = { restart: true; delayMs: number; crashes: number[] } | { restart: false; crashes: number[] };

/** `crashes`: earlier crash times (ms) of this service's children; returns the verdict and the new list. */
export function afterCrash(crashes: readonly number[], now: number, policy: CrashPolicy = CRASH_POLICY): Verdict {
  const recent = [...crashes.filter((t) => now - t < policy.windowMs), now];
  if (recent.length > policy.limit) return { restart: false, crashes: recent };
  return { restart: true, delayMs: Math.min(250 * 2 ** (recent.length - 1), 5_000), crashes: recent };
}

/**
 * The restarts waiting out their pause. Each timer keeps the primary's event loop alive: when every child exits at
 * once (an OOM kill, a signal sent to the children alone) nothing else does, and with unref'd timers the primary
 * exited quietly, database and all. `clear` cancels them when the service stops.
 */
export function restartTimers() {
  const timers = new Set<NodeJS.Timeout>();
  return {
    after(ms: number, run: () => void): NodeJS.Timeout {
      const timer = setTimeout(() => { timers.delete(timer); run(); }, ms);
      timers.add(timer);
      return timer;
    },
    clear(): void {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
    get pending(): number { return timers.size; },
  };
}
