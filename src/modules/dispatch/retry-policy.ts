/**
 * When a temporarily refused submit is tried again. Exponential from `baseMs`, capped at `maxMs`; the message
 * fails (and is refunded) after `maxAttempts` submits or once it is older than `validityMs`, the usual SMS
 * validity period. With the defaults a message is tried 10 times over about half an hour.
 */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
  validityMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  baseMs: 2_000,
  maxMs: 10 * 60_000,
  maxAttempts: 10,
  validityMs: 24 * 60 * 60_000,
});

/** Delay before the next try, given how many submits were made so far (1 after the first). */
export function retryDelayMs(attempts: number, policy: RetryPolicy = DEFAULT_RETRY): number {
  const exponent = Math.max(0, attempts - 1);
  // 2 ** exponent overflows to Infinity long after it passes any cap, so Math.min keeps it finite.
  return Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
}

export function shouldGiveUp(attempts: number, createdAt: Date, now: Date, policy: RetryPolicy = DEFAULT_RETRY): boolean {
  if (attempts >= policy.maxAttempts) return true;
  return now.getTime() + retryDelayMs(attempts, policy) - createdAt.getTime() > policy.validityMs;
}
