// Pacing helpers for the client: a token bucket for SMPP_TPS and capped, jittered exponential backoff.

/**
 * A FIFO token bucket: `take()` resolves when a token is free. tps <= 0 means no limit. The burst is 10 ms of
 * tokens (at least one), so any one second holds at most tps + burst submits: an SMSC counting per second sees
 * its limit held (a burst of a whole second let twice the rate through in the first second). `tps` may be a
 * function (a bind's rate controller): the rate is read at every take, so a change applies to the next token.
 * Whatever the bucket holds, no 1,000 ms window ever holds more than the rate's takes: a late timer's credit
 * catches the pace up without a burst an SMSC counting per second would throttle.
 */
export function createTokenBucket(tps: number | (() => number), burstOf = (rate: number) => Math.max(1, Math.ceil(rate / 100))): { take(): Promise<void> } {
  const rateNow = typeof tps === 'function' ? tps : () => tps;
  if (typeof tps === 'number' && (!(tps > 0) || !Number.isFinite(tps))) return { take: async () => {} };
  let tokens = 1;
  let last = performance.now();
  let queue: Promise<void> = Promise.resolve();
  let waiting = 0;
  // When the takes of the last second went through, oldest first.
  const recent: number[] = [];
  // The burst caps what an idle bucket saves up. While takes queue, the time a late timer overslept is credited
  // in full: on a busy event loop every timer fires late, and capping then lost that time on every token (a bind
  // at 20/s sent 16).
  const refill = (rate: number, capped: boolean): void => {
    const now = performance.now();
    tokens += ((now - last) / 1000) * rate;
    if (capped) tokens = Math.min(burstOf(rate), tokens);
    last = now;
  };
  return {
    take() {
      const idle = waiting === 0;
      waiting++;
      queue = queue.then(async () => {
        try {
          for (let first = true; ; first = false) {
            const rate = rateNow();
            if (!(rate > 0) || !Number.isFinite(rate)) { last = performance.now(); tokens = Math.min(tokens, 1); return; }
            refill(rate, idle && first);
            if (tokens >= 1) {
              const now = performance.now();
              while (recent.length > 0 && now - recent[0]! >= 1000) recent.shift();
              if (recent.length < Math.max(1, Math.floor(rate))) break;
              await new Promise((r) => setTimeout(r, Math.ceil(recent[0]! + 1000 - now)));
              continue;
            }
            // Waits for the next token at the rate it reads now; the loop reads the rate again after (it may have dropped).
            await new Promise((r) => setTimeout(r, Math.ceil(((1 - tokens) / rate) * 1000)));
          }
          tokens -= 1;
          recent.push(performance.now());
        } finally {
          waiting--;
        }
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
