import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './index.ts';

describe('createRateLimiter', () => {
  it.each([0, -1, 1.5, Number.NaN, Infinity])('refuses rps or concurrency of %s', (bad) => {
    expect(() => createRateLimiter({ rps: bad, concurrency: 1 })).toThrow(RangeError);
    expect(() => createRateLimiter({ rps: 1, concurrency: bad })).toThrow(RangeError);
  });

  it('limits in process by default, with the injected clock', async () => {
    let now = 0;
    const limiter = createRateLimiter({ rps: 2, concurrency: 1, now: () => now });
    const first = await limiter.acquire('k');
    expect(first.allowed).toBe(true);
    expect((await limiter.acquire('k')).reason).toBe('concurrency');
    first.release();
    (await limiter.acquire('k')).release();
    expect((await limiter.acquire('k')).reason).toBe('rate');
    now = 1_000;
    expect((await limiter.acquire('k')).allowed).toBe(true);
    await limiter.close();
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('shares the limits through Redis when given a client', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL ?? '');
    const prefix = `test:rl:${randomUUID()}:`;
    const options = { rps: 1, concurrency: 5, redis, prefix, now: () => 0 };
    const a = createRateLimiter(options);
    const b = createRateLimiter(options);
    expect((await a.acquire('k')).allowed).toBe(true);
    expect((await b.acquire('k')).reason).toBe('rate');
    await Promise.all([a.close(), b.close()]);
    // close() leaves the caller's connection open.
    expect(await redis.ping()).toBe('PONG');
    await redis.del(`${prefix}{k}:rate`, `${prefix}{k}:slots`);
    await redis.quit();
  });
});

describe('createRateLimiter with Redis unreachable', () => {
  it('falls back to the in-memory limiter instead of switching off, logging once a minute until Redis answers', async () => {
    const redis = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    redis.on('error', () => {});
    const logged: string[] = [];
    const log = { warn: (_: object, msg: string) => logged.push(`warn ${msg}`), info: (_: object, msg: string) => logged.push(`info ${msg}`) };
    let now = 1_000;
    const limiter = createRateLimiter({ rps: 3, concurrency: 10, redis, now: () => now, log });
    const decisions = [];
    for (let i = 0; i < 5; i += 1) decisions.push(await limiter.acquire('k'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions[3]!.reason).toBe('rate');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^warn redis unreachable/);
    now += 30_000;
    await limiter.acquire('k');
    expect(logged).toHaveLength(1);
    now += 31_000;
    await limiter.acquire('k');
    expect(logged).toHaveLength(2);
    await limiter.close();
    redis.disconnect();
  });

  it('says so once when Redis answers again', async () => {
    const logged: string[] = [];
    const log = { warn: (_: object, msg: string) => logged.push(`warn ${msg}`), info: (_: object, msg: string) => logged.push(`info ${msg}`) };
    let up = false;
    const reply = [0, 0, 0, 0, 0, 5];
    const redis = {
      evalsha: async () => { if (!up) throw new Error('connection is closed'); return reply; },
      zrem: async () => 0,
    } as unknown as Redis;
    const limiter = createRateLimiter({ rps: 3, concurrency: 10, redis, now: () => 5, log });
    await limiter.acquire('k');
    up = true;
    await limiter.acquire('k');
    await limiter.acquire('k');
    expect(logged.map((l) => l.split(':')[0])).toEqual(['warn redis unreachable', 'info redis reachable again']);
  });
});
