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
