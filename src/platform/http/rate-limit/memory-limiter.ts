import type { RateLimitDecision, RateLimiter } from './index.ts';
import type { Limits } from './sliding-window.ts';
import { WINDOW_MS, decisionHeaders, effectiveNow, expire, judge } from './sliding-window.ts';

interface Entry {
  /** admission times in the window, ascending */
  times: number[];
  /** slots held */
  active: number;
}

export interface MemoryLimiter extends RateLimiter {
  /** keys currently tracked; for leak tests */
  size(): number;
  /** drops idle keys now instead of waiting for the interval */
  sweep(): void;
}

export interface MemoryLimiterOptions extends Limits {
  now: () => number;
  /** how often idle keys are dropped; 0 disables the timer (tests call sweep()) */
  sweepIntervalMs?: number;
}

const noop = (): void => {};

export function createMemoryLimiter(options: MemoryLimiterOptions): MemoryLimiter {
  const { now } = options;
  const limits: Limits = { rps: options.rps, concurrency: options.concurrency };
  const entries = new Map<string, Entry>();

  // A key is idle once nothing is in flight and its last admission has left the window: dropping it then loses
  // nothing, because a fresh entry behaves identically. The timer is unref'd so it never keeps the process alive.
  function sweep(): void {
    const t = now();
    for (const [key, entry] of entries) {
      const newest = entry.times.at(-1);
      if (entry.active === 0 && (newest === undefined || newest <= t - WINDOW_MS)) entries.delete(key);
    }
  }
  const interval = options.sweepIntervalMs ?? 10_000;
  const timer = interval > 0 ? setInterval(sweep, interval) : undefined;
  timer?.unref();

  function slotRelease(entry: Entry): () => void {
    let released = false;
    // The caller releases from both the response-end and the abort path; only the first call frees the slot.
    // The closure holds the entry itself, so it stays correct even if the map no longer does.
    return () => {
      if (released) return;
      released = true;
      entry.active--;
    };
  }

  return {
    async acquire(key: string): Promise<RateLimitDecision> {
      let entry = entries.get(key);
      if (!entry) {
        entry = { times: [], active: 0 };
        entries.set(key, entry);
      }
      const t = effectiveNow(now(), entry.times.at(-1));
      expire(entry.times, t);
      const state = {
        count: entry.times.length,
        active: entry.active,
        oldest: entry.times[0],
        newest: entry.times.at(-1),
      };
      const refusal = judge(state, limits);
      const headers = decisionHeaders(state, limits, t, refusal);
      if (refusal !== undefined) return { allowed: false, reason: refusal, headers, release: noop };
      entry.times.push(t);
      entry.active++;
      return { allowed: true, headers, release: slotRelease(entry) };
    },
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      entries.clear();
    },
    size: () => entries.size,
    sweep,
  };
}
