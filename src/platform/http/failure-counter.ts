import type { Redis } from 'ioredis';
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client.ts';

/**
 * Failed authentication attempts counted per key (a source address, an email, a device cookie), shared by every
 * process and instance: in Redis when REDIS_URL is set, else in PostgreSQL (docs/decisions/0057-sign-in-throttle.md).
 * Only failures are ever counted: a correct credential never touches a counter except to clear its own.
 */
export interface FailureTally {
  /** failures in the current window, this one included when it came from `add` */
  count: number;
  /** milliseconds since the epoch: when the window began and when the latest failure came */
  windowStart: number;
  lastFailure: number;
}

/**
 * `fixed`: the window starts at the first failure and lasts `windowMs` (the per-address minute).
 * `idle`: the count starts again once `windowMs` has passed without a failure (the per-email growing delay).
 */
export type WindowMode = 'fixed' | 'idle';

export interface FailureCounter {
  add(key: string, windowMs: number, mode: WindowMode): Promise<FailureTally>;
  /** The tally as it stands, or null when the key has no live window. */
  peek(key: string, windowMs: number, mode: WindowMode): Promise<FailureTally | null>;
  clear(key: string): Promise<void>;
}

/** Rows untouched for a day are deleted, at most once a minute per process, so stale keys cost nothing. */
const STALE_MS = 86_400_000;
const SWEEP_EVERY_MS = 60_000;

function databaseCounter(db: Db, now: () => number): FailureCounter {
  let lastSweep = 0;
  // Whether the stored window is over at `t`: both modes compare in SQL so concurrent adds agree.
  const expired = (t: Date, windowMs: number, mode: WindowMode) => (mode === 'fixed'
    ? sql`f.window_start <= ${t}::timestamptz - make_interval(secs => ${windowMs / 1000})`
    : sql`f.last_failed_at <= ${t}::timestamptz - make_interval(secs => ${windowMs / 1000})`);
  type Row = { count: number; window_start: Date | string; last_failed_at: Date | string };
  const tally = (row: Row): FailureTally => ({
    count: row.count, windowStart: new Date(row.window_start).getTime(), lastFailure: new Date(row.last_failed_at).getTime(),
  });
  return {
    async add(key, windowMs, mode) {
      const t = new Date(now());
      if (t.getTime() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = t.getTime();
        await db.execute(sql`delete from auth_failures where last_failed_at < ${new Date(t.getTime() - STALE_MS)}`);
      }
      // One statement: two processes adding at once both count (the row lock orders them).
      const [row] = await rows<Row>(db, sql`
        insert into auth_failures as f (key, window_start, failures, last_failed_at) values (${key}, ${t}, 1, ${t})
        on conflict (key) do update set
          window_start = case when ${expired(t, windowMs, mode)} then ${t} else f.window_start end,
          failures = case when ${expired(t, windowMs, mode)} then 1 else f.failures + 1 end,
          last_failed_at = greatest(f.last_failed_at, ${t})
        returning failures as count, window_start, last_failed_at`);
      return tally(row!);
    },
    async peek(key, windowMs, mode) {
      const t = new Date(now());
      const [row] = await rows<Row>(db, sql`
        select failures as count, window_start, last_failed_at from auth_failures f where key = ${key} and not (${expired(t, windowMs, mode)})`);
      return row ? tally(row) : null;
    },
    async clear(key) {
      await db.execute(sql`delete from auth_failures where key = ${key}`);
    },
  };
}

// KEYS[1] a hash {start, n, last}; ARGV now, window, mode (1 fixed, 2 idle), add (1) or peek (0).
// Returns {n, start, last}, or {} for a peek at no live window. Whether a window is live is decided on `now`; the
// hash expires a second after its window would (only to free memory: a read a moment after the end must still
// find it, and find it over).
const SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local fixed = ARGV[3] == '1'
local h = redis.call('HMGET', KEYS[1], 'start', 'n', 'last')
local start, n, last = tonumber(h[1]), tonumber(h[2]), tonumber(h[3])
if start and ((fixed and start <= now - window) or ((not fixed) and last <= now - window)) then start = nil end
if ARGV[4] == '0' then
  if not start then return {} end
  return {n, start, last}
end
if not start then start = now; n = 1; last = now else n = n + 1; if now > last then last = now end end
redis.call('HSET', KEYS[1], 'start', start, 'n', n, 'last', last)
local ends = fixed and (start + window) or (last + window)
redis.call('PEXPIRE', KEYS[1], math.max(1, ends - now) + 1000)
return {n, start, last}
`;

function redisCounter(redis: Redis, fallback: FailureCounter, now: () => number, prefix: string): FailureCounter {
  // Redis unreachable: the database keeps counting, so an outage never switches the limit off.
  async function run(key: string, windowMs: number, mode: WindowMode, add: boolean): Promise<FailureTally | null | undefined> {
    try {
      const reply = await redis.eval(SCRIPT, 1, `${prefix}${key}`, Math.floor(now()), windowMs, mode === 'fixed' ? '1' : '2', add ? '1' : '0') as number[];
      if (!Array.isArray(reply)) return undefined;
      if (reply.length === 0) return null;
      const [count, windowStart, lastFailure] = reply.map(Number) as [number, number, number];
      return { count, windowStart, lastFailure };
    } catch {
      return undefined;
    }
  }
  return {
    async add(key, windowMs, mode) {
      return (await run(key, windowMs, mode, true)) ?? fallback.add(key, windowMs, mode);
    },
    async peek(key, windowMs, mode) {
      const found = await run(key, windowMs, mode, false);
      return found === undefined ? fallback.peek(key, windowMs, mode) : found;
    },
    async clear(key) {
      await Promise.all([redis.del(`${prefix}${key}`).catch(() => 0), fallback.clear(key)]);
    },
  };
}

export function createFailureCounter(opts: { db: Db; redis?: Redis | null; now?: () => number; prefix?: string }): FailureCounter {
  const now = opts.now ?? Date.now;
  const inDatabase = databaseCounter(opts.db, now);
  return opts.redis ? redisCounter(opts.redis, inDatabase, now, opts.prefix ?? 'tasman:af:') : inDatabase;
}
