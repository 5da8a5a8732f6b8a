// Pure arithmetic of the per-key rate rule, shared by the in-process and the Redis limiter.
//
// Rule: a request at time t is admitted iff fewer than `limit` admissions lie in (t - WINDOW_MS, t].
// This is a rolling log rather than GCRA on purpose: GCRA with emission interval T = 1 s / limit and tolerance tau
// admits up to ceil((1 s + tau) / T) requests in a half-open second, so the only tau that keeps every second at
// `limit` is 0, which refuses two requests arriving in the same 1 / limit seconds (25 parallel calls would see 24
// refusals). The log admits a full burst of `limit` at once and still never more than `limit` in any second;
// see README.md for the proof. It costs at most `limit` timestamps per active key.

export const WINDOW_MS = 1000;

export type Refusal = 'rate' | 'concurrency';

/** What a limiter knows about one key at the moment of a request, after expiry. */
export interface KeyState {
  /** admissions in (now - WINDOW_MS, now] */
  count: number;
  /** slots currently held */
  active: number;
  /** earliest and latest admission still in the window */
  oldest: number | undefined;
  newest: number | undefined;
}

export interface Limits {
  rps: number;
  concurrency: number;
}

/** Rate is checked first so a refused caller hears about the longer wait; neither refusal consumes anything. */
export function judge(state: KeyState, limits: Limits): Refusal | undefined {
  if (state.count >= limits.rps) return 'rate';
  if (state.active >= limits.concurrency) return 'concurrency';
  return undefined;
}

/**
 * Drops, in place, admissions that no longer count at `now` (those at or before now - WINDOW_MS).
 * `times` is ascending, so only a prefix can expire.
 */
export function expire(times: number[], now: number): void {
  let drop = 0;
  while (drop < times.length && (times[drop] ?? Infinity) <= now - WINDOW_MS) drop++;
  if (drop > 0) times.splice(0, drop);
}

/**
 * A clock that steps backwards (NTP, another host) must not reopen the window, so a key's time never runs behind
 * its latest admission.
 */
export function effectiveNow(now: number, newest: number | undefined): number {
  return newest !== undefined && newest > now ? newest : now;
}

/** Milliseconds until the window is empty again, so the whole allowance is available. */
export function resetMs(newest: number | undefined, now: number): number {
  return newest === undefined ? 0 : Math.max(0, newest + WINDOW_MS - now);
}

/** Milliseconds until the oldest admission leaves the window and frees one request. */
export function retryMs(oldest: number | undefined, now: number): number {
  return oldest === undefined ? 0 : Math.max(0, oldest + WINDOW_MS - now);
}

export interface HeaderInput {
  limit: number;
  remaining: number;
  resetMs: number;
  /** set only on a refusal */
  retryAfterMs?: number;
}

/** RateLimit-* and Retry-After in whole seconds; Retry-After is at least 1 so clients never retry in a tight loop. */
export function buildHeaders(input: HeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(input.limit),
    'RateLimit-Remaining': String(Math.max(0, input.remaining)),
    'RateLimit-Reset': String(Math.max(0, Math.ceil(input.resetMs / 1000))),
  };
  if (input.retryAfterMs !== undefined) {
    headers['Retry-After'] = String(Math.max(1, Math.ceil(input.retryAfterMs / 1000)));
  }
  return headers;
}

/** Headers for one decision, from the key state seen before it and whether it was admitted at `now`. */
export function decisionHeaders(
  state: KeyState,
  limits: Limits,
  now: number,
  refusal: Refusal | undefined,
): Record<string, string> {
  if (refusal === undefined) {
    return buildHeaders({ limit: limits.rps, remaining: limits.rps - state.count - 1, resetMs: WINDOW_MS });
  }
  return buildHeaders({
    limit: limits.rps,
    remaining: limits.rps - state.count,
    resetMs: resetMs(state.newest, now),
    retryAfterMs: refusal === 'rate' ? retryMs(state.oldest, now) : WINDOW_MS,
  });
}
