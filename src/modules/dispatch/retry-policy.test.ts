import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_RETRY, retryDelayMs, shouldGiveUp } from './retry-policy.ts';

describe('retry policy', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(retryDelayMs(10)).toBe(600_000);
    expect(retryDelayMs(1_000)).toBe(600_000);
  });

  it('is never negative, never above the cap and never shrinks', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000 }), (n) => {
      const d = retryDelayMs(n);
      return d >= DEFAULT_RETRY.baseMs && d <= DEFAULT_RETRY.maxMs && retryDelayMs(n + 1) >= d;
    }));
  });

  it('gives up after the last attempt', () => {
    const now = new Date();
    expect(shouldGiveUp(9, now, now)).toBe(false);
    expect(shouldGiveUp(10, now, now)).toBe(true);
  });

  it('gives up when the next try would fall outside the validity period', () => {
    const now = new Date('2030-01-02T00:00:00Z');
    expect(shouldGiveUp(1, new Date('2030-01-01T00:00:03Z'), now)).toBe(false);
    expect(shouldGiveUp(1, new Date('2030-01-01T00:00:01Z'), now)).toBe(true);
  });
});
