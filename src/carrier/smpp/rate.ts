// Pacing helpers for the client: a token bucket for SMPP_TPS and capped, jittered exponential backoff.

/**
 * A FIFO token bucket: `take()` resolves when a token is free. tps <= 0 means no limit. The burst is 10 ms of
 * tokens (at least one), so any one second holds at most tps + burst submits: an SMSC counting per second sees
 * its limit held (a burst of a whole second let twice the rate through in the first second).
 */
export function createTokenBucket(tps: number, burst = Math.max(1, Math.ceil(tps / 100))): { take(): Promise<void> } {
  if (!(tps > 0) || !Number.isFinite(tps)) return { take: async () => {} };
  let tokens = burst;
  let last = performance.now();
  let queue: Promise<void> = Promise.resolve();
  const refill = (): void => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - last) / 1000) * tps);
    last = now;
  };
  return {
    take() {
      queue = queue.then(async () => {
        refill();
        if (tokens < 1) {
          await new Promise((r) => setTimeout(r, Math.ceil(((1 - tokens) / tps) * 1000)));
          refill();
        }
        tokens -= 1;
      });
      return queue;
    },
  };
}

/** Delay before reconnect attempt `attempt` (0-based): doubling from initialMs, capped, with 50-100% jitter. */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random = Math.random): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(base * (0.5 + random() * 0.5));
}

/** A sleep that `wake()` cuts short (used so stop() does not wait out a backoff). */
export function createSleeper(): { sleep(ms: number): Promise<void>; wake(): void } {
  const wakers = new Set<() => void>();
  return {
    sleep: (ms) => new Promise<void>((resolve) => {
      const done = (): void => { clearTimeout(timer); wakers.delete(done); resolve(); };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    }),
    wake: () => { for (const w of [...wakers]) w(); },
  };
}
