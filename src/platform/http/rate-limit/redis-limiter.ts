import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiter } from './index.ts';
import type { KeyState, Limits, Refusal } from './sliding-window.ts';
import { WINDOW_MS, buildHeaders, decisionHeaders } from './sliding-window.ts';

// One script makes check-and-take atomic across every instance sharing the Redis server. Per API key:
//   KEYS[1] rate log:   sorted set of admissions, member = request token, score = admission time (ms)
//   KEYS[2] slot lease: sorted set of held slots, member = request token, score = lease expiry (ms)
// A crashed instance never releases its slots, so each slot is a lease that lapses after leaseMs.
// Times come from the callers' clocks (injectable in tests, NTP-synchronised hosts in production); the key's time
// is clamped to its latest admission so a host whose clock runs behind cannot reopen the window.
// Returns {refusal (0 none, 1 rate, 2 concurrency), count, active, oldest, newest, now}, all integers, describing
// the key before this request's own admission; oldest and newest mean nothing when count is 0.
const ACQUIRE = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local rps = tonumber(ARGV[3])
local slots = tonumber(ARGV[4])
local lease = tonumber(ARGV[5])
local token = ARGV[6]
local latest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if latest[2] and tonumber(latest[2]) > now then now = tonumber(latest[2]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local count = redis.call('ZCARD', KEYS[1])
local active = redis.call('ZCARD', KEYS[2])
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
local oldest = first[2] and tonumber(first[2]) or 0
local newest = last[2] and tonumber(last[2]) or 0
local refusal = 0
if count >= rps then refusal = 1 elseif active >= slots then refusal = 2 end
if refusal == 0 then
  redis.call('ZADD', KEYS[1], now, token)
  redis.call('PEXPIRE', KEYS[1], window)
  redis.call('ZADD', KEYS[2], now + lease, token)
  redis.call('PEXPIRE', KEYS[2], lease)
end
return {refusal, count, active, oldest, newest, now}
`;
const ACQUIRE_SHA = createHash('sha1').update(ACQUIRE).digest('hex');

export interface RedisLimiterOptions extends Limits {
  redis: Redis;
  prefix?: string | undefined;
  now: () => number;
  /** how long a slot survives without release; longer than any request should take */
  leaseMs?: number;
  /** longest wait for Redis before falling back (or failing open) */
  timeoutMs?: number;
  /**
   * Decides while Redis cannot (down, slow, a malformed reply): this process's in-memory limiter, so limits hold
   * per process instead of switching off. Without one the limiter fails open.
   */
  fallback?: (key: string) => Promise<RateLimitDecision>;
  /** Called after each answer Redis gave, so an outage can be declared over. */
  onAnswer?: () => void;
}

const REFUSALS: Record<number, Refusal | undefined> = { 0: undefined, 1: 'rate', 2: 'concurrency' };

export function createRedisLimiter(options: RedisLimiterOptions): RateLimiter {
  const { redis, now } = options;
  const limits: Limits = { rps: options.rps, concurrency: options.concurrency };
  const prefix = options.prefix ?? 'tasman:rl:';
  const leaseMs = options.leaseMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 500;

  // EVALSHA saves sending the script each time; NOSCRIPT means the server restarted or flushed its cache.
  async function run(keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(ACQUIRE_SHA, keys.length, ...keys, ...args);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('NOSCRIPT')) {
        return await redis.eval(ACQUIRE, keys.length, ...keys, ...args);
      }
      throw err;
    }
  }

  function slotRelease(slotKey: string, token: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // If this fails the lease lapses on its own, so there is nothing useful to do with the error.
      redis.zrem(slotKey, token).catch(() => {});
    };
  }

  return {
    async acquire(key: string): Promise<RateLimitDecision> {
      // The hash tag keeps both keys in one cluster slot, as a script touching two keys requires.
      const rateKey = `${prefix}{${key}}:rate`;
      const slotKey = `${prefix}{${key}}:slots`;
      const token = randomUUID();
      // Whole milliseconds: scores go through Lua numbers, and fractions would blur the window edge.
      const t = Math.floor(now());
      let reply: unknown;
      try {
        reply = await withTimeout(
          run([rateKey, slotKey], [t, WINDOW_MS, limits.rps, limits.concurrency, leaseMs, token]),
          timeoutMs,
        );
      } catch {
        return unavailable(key, slotRelease(slotKey, token));
      }
      const parsed = parseReply(reply);
      if (!parsed) return unavailable(key, slotRelease(slotKey, token));
      options.onAnswer?.();
      const { refusal, state, at } = parsed;
      const headers = decisionHeaders(state, limits, at, refusal);
      if (refusal !== undefined) return { allowed: false, reason: refusal, headers, release: () => {} };
      return { allowed: true, headers, release: slotRelease(slotKey, token) };
    },
    // The connection belongs to the caller, who may share it with other modules.
    async close(): Promise<void> {},
  };

  // Failing open: a Redis outage should degrade to "no limit" rather than take the whole API down with it, and the
  // limiter is protection against abuse, not billing (credits are enforced in PostgreSQL). Logging is left to the
  // Redis client's own error events, so an outage does not produce one log line per request. The headers describe
  // a window holding only this request. release() still removes the token in case a timed-out script did run, so
  // the slot does not linger for the whole lease.
  async function unavailable(key: string, release: () => void): Promise<RateLimitDecision> {
    if (!options.fallback) return failOpen(release);
    // A timed-out script may still have run: remove its token, whatever the fallback decides.
    release();
    return options.fallback(key);
  }

  function failOpen(release: () => void): RateLimitDecision {
    return {
      allowed: true,
      headers: buildHeaders({ limit: limits.rps, remaining: limits.rps - 1, resetMs: WINDOW_MS }),
      release,
    };
  }
}

function parseReply(reply: unknown): { refusal: Refusal | undefined; state: KeyState; at: number } | undefined {
  if (!Array.isArray(reply) || reply.length !== 6 || !reply.every((v) => typeof v === 'number')) return undefined;
  const [code, count, active, oldest, newest, at] = reply as number[];
  if (code === undefined || !(code in REFUSALS) || at === undefined) return undefined;
  return {
    refusal: REFUSALS[code],
    state: {
      count: count ?? 0,
      active: active ?? 0,
      oldest: count ? oldest : undefined,
      newest: count ? newest : undefined,
    },
    at,
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
