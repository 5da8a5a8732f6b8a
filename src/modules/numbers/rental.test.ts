import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GRACE_DAYS, periodEnd, rentalCredits, unpaidAction } from './rental.ts';

describe('rentalCredits', () => {
  it.each([
    [0, 3, 0],
    [0.03, 3, 1],
    [0.04, 3, 2],
    [9.99, 3, 333],
    [10, 3, 334],
    [15, 5, 300],
    [1.1, 1, 110],
  ])('$%s a month at %s cents a credit is %s credits', (price, cents, credits) => {
    expect(rentalCredits(price, cents)).toBe(credits);
  });

  it('never charges less than the price, and never a whole credit more', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 1000 }), (cents, creditCents) => {
      const credits = rentalCredits(cents / 100, creditCents);
      expect(credits * creditCents).toBeGreaterThanOrEqual(cents);
      expect((credits - 1) * creditCents).toBeLessThan(cents);
    }));
  });
});

describe('periods and grace', () => {
  const at = (iso: string) => new Date(iso);

  it('a period is 30 days, across a daylight-saving change (UTC arithmetic)', () => {
    expect(periodEnd(at('2026-03-20T05:00:00.000Z')).toISOString()).toBe('2026-04-19T05:00:00.000Z');
  });

  it('starts the grace on the first failed renewal, waits 7 days, then releases', () => {
    const start = at('2026-01-01T00:00:00.000Z');
    expect(unpaidAction(null, start)).toBe('start_grace');
    expect(unpaidAction(start, at('2026-01-07T23:59:59.999Z'))).toBe('wait');
    expect(unpaidAction(start, at(`2026-01-0${1 + GRACE_DAYS}T00:00:00.000Z`))).toBe('release');
  });
});
