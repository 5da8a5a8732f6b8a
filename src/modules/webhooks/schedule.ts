/**
 * The webhook retry schedule, pure so it can be tested exhaustively.
 *
 * Attempt 1 goes out immediately; after failure n (1-based) the next attempt waits delays[n-1] seconds; after
 * the failure that follows the last delay the delivery is given up on. With the default `60,300` that is three
 * attempts: now, ~60 s after the first failure, ~300 s after the second, then failed.
 */

export const DEFAULT_RETRY_DELAYS: readonly number[] = [60, 300];

/** Default jitter: ±10 % of each delay, so a burst of failures does not retry as one synchronised burst. */
export const DEFAULT_JITTER = 0.1;

// A week: larger values are almost certainly milliseconds typed where seconds were meant.
const MAX_DELAY_SECONDS = 7 * 24 * 3600;

/**
 * Parses `WEBHOOK_RETRY_DELAYS`: comma-separated seconds, e.g. "60,300"; fractions are allowed ("0.05,0.1") so
 * tests can run the real schedule quickly, matching what config.ts accepts. Spaces around items are allowed.
 * An empty (or all-blank) string means no retries: one attempt only. Throws an Error naming the bad item
 * otherwise, so config can report it as-is.
 */
export function parseRetryDelays(value: string): number[] {
  if (value.trim() === '') return [];
  return value.split(',').map((raw, i) => {
    const item = raw.trim();
    if (!/^\d+(\.\d+)?$/.test(item)) {
      throw new Error(`WEBHOOK_RETRY_DELAYS item ${i + 1} ("${item}") must be a number of seconds, e.g. 60,300`);
    }
    const seconds = Number(item);
    if (seconds > MAX_DELAY_SECONDS) {
      throw new Error(`WEBHOOK_RETRY_DELAYS item ${i + 1} (${seconds}) exceeds ${MAX_DELAY_SECONDS} seconds (one week)`);
    }
    return seconds;
  });
}

/** Total attempts the schedule allows: the first one plus one per delay. */
export function maxAttempts(delays: readonly number[]): number {
  return delays.length + 1;
}

export type NextAttemptInput = {
  /** Attempts already made, all of which failed (0 for a delivery not yet tried). */
  attemptsMade: number;
  /** Seconds to wait after failure 1, 2, … (from parseRetryDelays). */
  delays: readonly number[];
  now: Date;
  /** Fraction of the delay to spread by, either way: 0.1 means ±10 %. 0 disables jitter. */
  jitter?: number;
  /** Uniform in [0, 1); injectable for tests. 0.5 gives exactly the configured delay. */
  random?: () => number;
};

/**
 * When to make the next attempt, or null when the delivery should be marked failed.
 * The first attempt is never jittered: "immediately" means now.
 */
export function nextAttempt(input: NextAttemptInput): Date | null {
  const { attemptsMade, delays, now } = input;
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
  }
  if (attemptsMade === 0) return new Date(now.getTime());
  const delay = delays[attemptsMade - 1];
  if (delay === undefined) return null;

  const jitter = input.jitter ?? DEFAULT_JITTER;
  if (!(jitter >= 0 && jitter < 1)) throw new RangeError(`jitter must be in [0, 1), got ${jitter}`);
  const r = (input.random ?? Math.random)();
  // Map r ∈ [0, 1) onto a factor in [1 - jitter, 1 + jitter); clamp guards a misbehaving injected random.
  const factor = 1 + jitter * (2 * Math.min(Math.max(r, 0), 1) - 1);
  return new Date(now.getTime() + Math.round(delay * 1000 * factor));
}
