import type { Redis } from 'ioredis';
import { createMemoryLimiter } from './memory-limiter.ts';
import { createRedisLimiter } from './redis-limiter.ts';

export interface RateLimitDecision {
  allowed: boolean;
  /** why it was refused: 'rate' or 'concurrency' (undefined when allowed) */
  reason?: 'rate' | 'concurrency';
  /** headers to set on the response in every case: RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset (and Retry-After when refused) */
  headers: Record<string, string>;
  /** idempotent; no-op when not allowed */
  release(): void;
}

export interface RateLimiter {
  acquire(key: string): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  /** requests admitted in any half-open one-second span [t, t + 1 s) */
  rps: number;
  /** requests in flight at once */
  concurrency: number;
  /** shares the limits across instances; the caller owns the connection and closes it */
  redis?: Redis;
  /** Redis key prefix; defaults to 'tasman:rl:' */
  prefix?: string;
  /** milliseconds since the epoch; injected by tests */
  now?: () => number;
  /** where a Redis outage is reported (once a minute while it lasts, and when it ends) */
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** While Redis is unreachable, how often the outage is logged again. */
export const OUTAGE_LOG_INTERVAL_MS = 60_000;

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  assertPositiveInteger('rps', options.rps);
  assertPositiveInteger('concurrency', options.concurrency);
  const limits = { rps: options.rps, concurrency: options.concurrency };
  const now = options.now ?? Date.now;
  if (options.redis) {
    // Redis unreachable: each process enforces the limits on its own (N processes admit up to N times the rate)
    // rather than not at all, and says so once a minute until Redis answers again.
    const local = createMemoryLimiter({ ...limits, now });
    let lastLogged: number | null = null;
    return createRedisLimiter({
      ...limits, redis: options.redis, prefix: options.prefix, now,
      fallback: (key) => {
        const t = now();
        if (lastLogged === null || t - lastLogged >= OUTAGE_LOG_INTERVAL_MS) {
          options.log?.warn({ fallback: 'memory' }, 'redis unreachable: rate limits fall back to this process\'s in-memory limiter');
          lastLogged = t;
        }
        return local.acquire(key);
      },
      onAnswer: () => {
        if (lastLogged === null) return;
        lastLogged = null;
        options.log?.info({}, 'redis reachable again: rate limits shared across instances');
      },
    });
  }
  return createMemoryLimiter({ ...limits, now });
}

function assertPositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`rate limiter ${name} must be a positive integer, got ${value}`);
  }
}
