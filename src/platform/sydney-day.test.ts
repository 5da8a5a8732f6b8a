import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sydneyDay, sydneyDayEndExclusive, sydneyDayStart } from './sydney-day.ts';

const HOUR = 3_600_000;

describe('sydneyDay', () => {
  it.each([
    // standard time, UTC+10
    ['2025-06-15T13:59:59.999Z', '2025-06-15'],
    ['2025-06-15T14:00:00.000Z', '2025-06-16'],
    ['2025-06-15T00:00:00.000Z', '2025-06-15'],
    // daylight saving, UTC+11
    ['2025-01-15T12:59:59.999Z', '2025-01-15'],
    ['2025-01-15T13:00:00.000Z', '2025-01-16'],
    // year and month boundaries
    ['2024-12-31T12:59:59.999Z', '2024-12-31'],
    ['2024-12-31T13:00:00.000Z', '2025-01-01'],
    ['2024-02-28T13:00:00.000Z', '2024-02-29'], // leap day
    ['2025-02-28T13:00:00.000Z', '2025-03-01'],
    // DST ends 2025-04-06 03:00 AEDT → 02:00 AEST (16:00Z on the 5th)
    ['2025-04-05T12:59:59.999Z', '2025-04-05'],
    ['2025-04-05T13:00:00.000Z', '2025-04-06'],
    ['2025-04-05T15:59:59.999Z', '2025-04-06'],
    ['2025-04-05T16:00:00.000Z', '2025-04-06'],
    ['2025-04-06T13:59:59.999Z', '2025-04-06'],
    ['2025-04-06T14:00:00.000Z', '2025-04-07'],
    // DST starts 2025-10-05 02:00 AEST → 03:00 AEDT (16:00Z on the 4th)
    ['2025-10-04T13:59:59.999Z', '2025-10-04'],
    ['2025-10-04T14:00:00.000Z', '2025-10-05'],
    ['2025-10-04T16:00:00.000Z', '2025-10-05'],
    ['2025-10-05T12:59:59.999Z', '2025-10-05'],
    ['2025-10-05T13:00:00.000Z', '2025-10-06'],
  ])('%s is %s in Sydney', (iso, day) => {
    expect(sydneyDay(new Date(iso))).toBe(day);
  });

  it('refuses an invalid date', () => {
    expect(() => sydneyDay(new Date(NaN))).toThrow(RangeError);
  });
});

describe('sydneyDayStart and sydneyDayEndExclusive', () => {
  it.each([
    ['2025-06-15', '2025-06-14T14:00:00.000Z', '2025-06-15T14:00:00.000Z', 24],
    ['2025-01-15', '2025-01-14T13:00:00.000Z', '2025-01-15T13:00:00.000Z', 24],
    ['2025-01-01', '2024-12-31T13:00:00.000Z', '2025-01-01T13:00:00.000Z', 24],
    ['2024-02-29', '2024-02-28T13:00:00.000Z', '2024-02-29T13:00:00.000Z', 24],
    // the day DST ends (first Sunday of April) has 25 hours
    ['2025-04-05', '2025-04-04T13:00:00.000Z', '2025-04-05T13:00:00.000Z', 24],
    ['2025-04-06', '2025-04-05T13:00:00.000Z', '2025-04-06T14:00:00.000Z', 25],
    ['2025-04-07', '2025-04-06T14:00:00.000Z', '2025-04-07T14:00:00.000Z', 24],
    ['2024-04-07', '2024-04-06T13:00:00.000Z', '2024-04-07T14:00:00.000Z', 25],
    // the day DST starts (first Sunday of October) has 23 hours
    ['2025-10-04', '2025-10-03T14:00:00.000Z', '2025-10-04T14:00:00.000Z', 24],
    ['2025-10-05', '2025-10-04T14:00:00.000Z', '2025-10-05T13:00:00.000Z', 23],
    ['2025-10-06', '2025-10-05T13:00:00.000Z', '2025-10-06T13:00:00.000Z', 24],
    ['2024-10-06', '2024-10-05T14:00:00.000Z', '2024-10-06T13:00:00.000Z', 23],
  ])('%s runs from %s to %s (%i hours)', (day, start, end, hours) => {
    expect(sydneyDayStart(day).toISOString()).toBe(start);
    expect(sydneyDayEndExclusive(day).toISOString()).toBe(end);
    expect((sydneyDayEndExclusive(day).getTime() - sydneyDayStart(day).getTime()) / HOUR).toBe(hours);
  });

  it.each(['', '2025-6-15', '2025-06-15T00:00', '2025-02-29', '2025-13-01', '2025-00-10', '2025-04-31', 'tomorrow'])(
    'refuses %j',
    (day) => {
      expect(() => sydneyDayStart(day)).toThrow(RangeError);
      expect(() => sydneyDayEndExclusive(day)).toThrow(RangeError);
    },
  );

  it('brackets every instant: start(day(t)) <= t < endExclusive(day(t)), and days tile with no gap', () => {
    const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) });
    fc.assert(
      fc.property(instant, (ms) => {
        const day = sydneyDay(new Date(ms));
        const start = sydneyDayStart(day);
        const end = sydneyDayEndExclusive(day);
        expect(start.getTime()).toBeLessThanOrEqual(ms);
        expect(end.getTime()).toBeGreaterThan(ms);
        // the start is that day's midnight, and the instant before it belongs to the previous day
        expect(sydneyDay(start)).toBe(day);
        expect(sydneyDay(new Date(start.getTime() - 1))).not.toBe(day);
        expect(sydneyDay(end)).not.toBe(day);
        expect(sydneyDayStart(sydneyDay(end)).getTime()).toBe(end.getTime());
        expect([23, 24, 25]).toContain((end.getTime() - start.getTime()) / HOUR);
      }),
    );
  });

  it('gives 23- and 25-hour days only on the first Sundays of October and April', () => {
    let day = '2020-01-01';
    while (day < '2031-01-01') {
      const start = sydneyDayStart(day);
      const end = sydneyDayEndExclusive(day);
      const hours = (end.getTime() - start.getTime()) / HOUR;
      const date = new Date(`${day}T00:00:00Z`);
      const firstSunday = date.getUTCDay() === 0 && date.getUTCDate() <= 7;
      const month = date.getUTCMonth() + 1;
      const expected = firstSunday && month === 10 ? 23 : firstSunday && month === 4 ? 25 : 24;
      expect(hours, day).toBe(expected);
      day = sydneyDay(end);
    }
  });
});
