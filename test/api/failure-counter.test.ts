// The failed-attempt counters shared by every process: in PostgreSQL, and in Redis when TEST_REDIS_URL is set.
// Two counters on one store stand in for two instances; a fixed clock moves instead of waiting.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createFailureCounter, type FailureCounter } from '../../src/platform/http/failure-counter.ts';

let t: TestApp;
let redis: Redis | null = null;
const redisUrl = process.env.TEST_REDIS_URL;
beforeAll(async () => {
  t = await createTestApp();
  if (redisUrl) redis = new Redis(redisUrl);
});
afterAll(async () => {
  await redis?.quit();
  await t.close();
});

const clock = { now: Date.UTC(2027, 0, 4, 9, 0, 0) };
const stores: Array<[string, () => [FailureCounter, FailureCounter]]> = [
  ['database', () => [createFailureCounter({ db: t.services.db, now: () => clock.now }), createFailureCounter({ db: t.services.db, now: () => clock.now })]],
  ...(redisUrl ? [['redis', () => {
    const prefix = `test:af:${randomUUID()}:`;
    return [createFailureCounter({ db: t.services.db, redis, now: () => clock.now, prefix }), createFailureCounter({ db: t.services.db, redis, now: () => clock.now, prefix })];
  }] as [string, () => [FailureCounter, FailureCounter]]] : []),
];

describe.each(stores)('failure counter (%s)', (_name, pair) => {
  it('two instances count one total, concurrently; a fixed window ends a minute after its first failure', async () => {
    const [a, b] = pair();
    const key = `addr:${randomUUID()}`;
    const tallies = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).add(key, 60_000, 'fixed')));
    expect(tallies.map((x) => x.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const start = clock.now;
    clock.now += 59_999;
    expect((await a.add(key, 60_000, 'fixed')).count).toBe(21);
    expect((await b.peek(key, 60_000, 'fixed'))).toMatchObject({ count: 21, windowStart: start });
    clock.now += 1;
    expect(await b.peek(key, 60_000, 'fixed')).toBeNull();
    expect((await a.add(key, 60_000, 'fixed'))).toMatchObject({ count: 1, windowStart: clock.now });
  });

  it('an idle window lasts while failures keep coming, and ends after a quiet window; clear forgets at once', async () => {
    const [a, b] = pair();
    const key = `email:${randomUUID()}`;
    for (let i = 0; i < 5; i++) {
      await a.add(key, 60_000, 'idle');
      clock.now += 50_000;
    }
    expect(await b.peek(key, 60_000, 'idle')).toMatchObject({ count: 5, lastFailure: clock.now - 50_000 });
    clock.now += 10_000;
    expect(await b.peek(key, 60_000, 'idle')).toBeNull();
    await a.add(key, 60_000, 'idle');
    await b.clear(key);
    expect(await a.peek(key, 60_000, 'idle')).toBeNull();
  });
});
