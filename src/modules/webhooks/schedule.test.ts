import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS, maxAttempts, nextAttempt, parseRetryDelays } from './schedule.ts';

const now = new Date('2025-01-01T00:00:00.000Z');
const t = (d: Date | null) => (d === null ? null : d.getTime() - now.getTime());
const exact = () => 0.5;

describe('parseRetryDelays', () => {
  it.each([
    ['60,300', [60, 300]],
    [' 60 , 300 ', [60, 300]],
    ['0', [0]],
    ['5', [5]],
    ['1,2,3,4', [1, 2, 3, 4]],
    ['', []],
    ['   ', []],
    ['604800', [604800]],
    ['0.05,0.1', [0.05, 0.1]],
  ])('parses %j', (input, expected) => {
    expect(parseRetryDelays(input)).toEqual(expected);
  });

  it.each(['60,', ',60', '60,,300', '-1', '1.', '.5', '60s', 'abc', '1e3', '0x10', '604801', '60;300'])(
    'rejects %j with a message naming the variable',
    (input) => {
      expect(() => parseRetryDelays(input)).toThrow(/WEBHOOK_RETRY_DELAYS item \d+/);
    },
  );

  it('round-trips any list of valid delays', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 604800 }), { minLength: 1, maxLength: 10 }), (delays) => {
        expect(parseRetryDelays(delays.join(','))).toEqual(delays);
      }),
    );
  });
});

describe('nextAttempt with the default schedule', () => {
  const delays = DEFAULT_RETRY_DELAYS;

  it('attempt 1 is immediate, 2 after 60 s, 3 after 300 s, then give up', () => {
    expect(t(nextAttempt({ attemptsMade: 0, delays, now, random: exact }))).toBe(0);
    expect(t(nextAttempt({ attemptsMade: 1, delays, now, random: exact }))).toBe(60_000);
    expect(t(nextAttempt({ attemptsMade: 2, delays, now, random: exact }))).toBe(300_000);
    expect(nextAttempt({ attemptsMade: 3, delays, now, random: exact })).toBeNull();
    expect(nextAttempt({ attemptsMade: 4, delays, now, random: exact })).toBeNull();
    expect(maxAttempts(delays)).toBe(3);
  });

  it('jitters by ±10 % by default', () => {
    expect(t(nextAttempt({ attemptsMade: 1, delays, now, random: () => 0 }))).toBe(54_000);
    expect(t(nextAttempt({ attemptsMade: 2, delays, now, random: () => 0 }))).toBe(270_000);
    expect(t(nextAttempt({ attemptsMade: 1, delays, now, random: () => 0.75 }))).toBe(63_000);
    expect(t(nextAttempt({ attemptsMade: 2, delays, now, random: () => 0.999999 }))).toBe(330_000);
  });

  it('never jitters the first attempt', () => {
    expect(t(nextAttempt({ attemptsMade: 0, delays, now, random: () => 0 }))).toBe(0);
  });

  it('jitter 0 gives the exact delay whatever random returns', () => {
    expect(t(nextAttempt({ attemptsMade: 1, delays, now, jitter: 0, random: () => 0 }))).toBe(60_000);
  });

  it('does not mutate now', () => {
    const before = now.getTime();
    const d = nextAttempt({ attemptsMade: 0, delays, now });
    expect(d).not.toBe(now);
    expect(now.getTime()).toBe(before);
  });
});

describe('nextAttempt edge cases', () => {
  it('with no delays there is exactly one attempt', () => {
    expect(t(nextAttempt({ attemptsMade: 0, delays: [], now }))).toBe(0);
    expect(nextAttempt({ attemptsMade: 1, delays: [], now })).toBeNull();
  });

  it('a zero delay retries at once', () => {
    expect(t(nextAttempt({ attemptsMade: 1, delays: [0], now, random: () => 0 }))).toBe(0);
  });

  it.each([-1, 1.5, Number.NaN, Infinity])('rejects attemptsMade %s', (attemptsMade) => {
    expect(() => nextAttempt({ attemptsMade, delays: [60], now })).toThrow(RangeError);
  });

  it.each([-0.1, 1, Number.NaN])('rejects jitter %s', (jitter) => {
    expect(() => nextAttempt({ attemptsMade: 1, delays: [60], now, jitter })).toThrow(RangeError);
  });

  it('clamps an out-of-range injected random', () => {
    expect(t(nextAttempt({ attemptsMade: 1, delays: [100], now, random: () => -5 }))).toBe(90_000);
    expect(t(nextAttempt({ attemptsMade: 1, delays: [100], now, random: () => 5 }))).toBe(110_000);
  });
});

describe('nextAttempt properties', () => {
  const arbDelays = fc.array(fc.integer({ min: 0, max: 604800 }), { maxLength: 8 });

  it('gives up exactly after delays.length + 1 attempts', () => {
    fc.assert(
      fc.property(arbDelays, fc.integer({ min: 0, max: 20 }), (delays, attemptsMade) => {
        const next = nextAttempt({ attemptsMade, delays, now });
        expect(next === null).toBe(attemptsMade >= maxAttempts(delays));
      }),
    );
  });

  it('stays within ±jitter of the configured delay, never before now', () => {
    fc.assert(
      fc.property(
        arbDelays.filter((d) => d.length > 0),
        fc.nat(),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (delays, k, jitter, r) => {
          const attemptsMade = 1 + (k % delays.length);
          const delayMs = delays[attemptsMade - 1]! * 1000;
          const ms = t(nextAttempt({ attemptsMade, delays, now, jitter, random: () => r }))!;
          expect(ms).toBeGreaterThanOrEqual(0);
          expect(ms).toBeGreaterThanOrEqual(Math.floor(delayMs * (1 - jitter)) - 1);
          expect(ms).toBeLessThanOrEqual(Math.ceil(delayMs * (1 + jitter)) + 1);
        },
      ),
    );
  });

  it('is monotone in random', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 604800 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (delay, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const x = t(nextAttempt({ attemptsMade: 1, delays: [delay], now, random: () => lo }))!;
          const y = t(nextAttempt({ attemptsMade: 1, delays: [delay], now, random: () => hi }))!;
          expect(x).toBeLessThanOrEqual(y);
        }),
    );
  });
});
