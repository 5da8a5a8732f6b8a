import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { backoffDelay, createSleeper, createTokenBucket } from './rate.ts';

describe('token bucket', () => {
  it('never lets more than burst + tps * elapsed through', async () => {
    const bucket = createTokenBucket(50, () => 1);
    const started = performance.now();
    for (let i = 0; i < 6; i++) await bucket.take();
    // Only a lower bound: a loaded machine can be slower, never faster.
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('never lets more than tps through in any one second, even when a stalled event loop owes it time', async () => {
    const tps = 20;
    const bucket = createTokenBucket(tps);
    const times: number[] = [];
    const takes = Array.from({ length: 45 }, () => bucket.take().then(() => { times.push(performance.now()); }));
    await new Promise((r) => setTimeout(r, 100));
    // A busy event loop: every waiting timer fires 1.5 s late, and the bucket is owed 30 tokens.
    const until = performance.now() + 1500;
    while (performance.now() < until) { /* stall */ }
    await Promise.all(takes);
    for (let i = tps; i < times.length; i++) expect(times[i]! - times[i - tps]!, `take ${i}`).toBeGreaterThanOrEqual(999);
  });

  it('is a no-op without a limit', async () => {
    const bucket = createTokenBucket(0);
    await Promise.all(Array.from({ length: 1000 }, () => bucket.take()));
  });
});

describe('backoff', () => {
  it('doubles, caps and jitters between half and all of the step', () => {
    fc.assert(fc.property(fc.nat(100), fc.double({ min: 0, max: 0.999999, noNaN: true }), (attempt, r) => {
      const d = backoffDelay(attempt, 100, 5_000, () => r);
      const step = Math.min(5_000, 100 * 2 ** attempt);
      expect(d).toBeGreaterThanOrEqual(Math.floor(step / 2));
      expect(d).toBeLessThanOrEqual(step);
    }));
  });

  it('wakes sleepers early', async () => {
    const sleeper = createSleeper();
    const started = performance.now();
    const done = sleeper.sleep(60_000);
    sleeper.wake();
    await done;
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
