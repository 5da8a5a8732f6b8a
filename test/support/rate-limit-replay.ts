// Shared by the rate limiters' property tests (src/platform/http/rate-limit): replaying request times and checking every one-second span.
import fc from 'fast-check';
import type { RateLimiter } from '../../src/platform/http/rate-limit/index.ts';
import { WINDOW_MS } from '../../src/platform/http/rate-limit/sliding-window.ts';

/**
 * Most admissions in any half-open span [a, a + WINDOW_MS). Shifting a span right until its start meets an
 * admission never loses one, so checking the spans that start at each admission checks every span.
 */
export function busiestSpan(admitted: number[]): number {
  const times = [...admitted].sort((x, y) => x - y);
  let best = 0;
  let end = 0;
  for (let start = 0; start < times.length; start++) {
    const from = times[start] ?? 0;
    while (end < times.length && (times[end] ?? 0) < from + WINDOW_MS) end++;
    best = Math.max(best, end - start);
  }
  return best;
}

export interface Replayed {
  /** the time the limiter judged the request at: the clock, never behind an earlier request's */
  at: number;
  allowed: boolean;
  reason: 'rate' | 'concurrency' | undefined;
}

/** Sends one request per clock reading, in order, releasing each slot at once so only the rate can refuse. */
export async function replay(
  limiter: RateLimiter,
  key: string,
  clock: { now: number },
  readings: number[],
  toTime: (reading: number) => number = (r) => r,
): Promise<Replayed[]> {
  const out: Replayed[] = [];
  let latest = -Infinity;
  for (const reading of readings) {
    clock.now = reading;
    const decision = await limiter.acquire(key);
    decision.release();
    latest = Math.max(latest, toTime(reading));
    out.push({ at: latest, allowed: decision.allowed, reason: decision.reason });
  }
  return out;
}

/**
 * A request must be admitted exactly when fewer than `rps` admissions lie in (at - WINDOW_MS, at]; together with
 * busiestSpan <= rps this says the limiter is both safe and never stricter than it has to be.
 */
export function firstMismatch(results: Replayed[], rps: number): number {
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    if (!r) continue;
    const inWindow = results.slice(0, i).filter((p) => p.allowed && p.at > r.at - WINDOW_MS).length;
    if (r.allowed !== inWindow < rps) return i;
    if (!r.allowed && r.reason !== 'rate') return i;
  }
  return -1;
}

/**
 * Clock readings as running sums of gaps: mostly dense, so windows fill up, with the odd long pause, and gaps that
 * land exactly on the window edge, where an off-by-one in the rule would show.
 */
export function readings(options: { integer: boolean; maxLength: number }): fc.Arbitrary<number[]> {
  const edges = fc.constantFrom(1, WINDOW_MS - 1, WINDOW_MS, WINDOW_MS + 1);
  const gap = options.integer
    ? fc.oneof(fc.constant(0), edges, fc.integer({ min: 0, max: 60 }), fc.integer({ min: 900, max: 1100 }))
    : fc.oneof(
        fc.constant(0),
        edges,
        fc.double({ min: 0, max: 60, noNaN: true }),
        fc.double({ min: 900, max: 1100, noNaN: true }),
      );
  return fc.array(gap, { maxLength: options.maxLength }).map((gaps) => {
    let t = options.integer ? 1_000_000 : 1_000_000.5;
    return gaps.map((g) => (t += g));
  });
}
