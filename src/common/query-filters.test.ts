import { describe, expect, it } from 'vitest';
import { containsPattern, parseIsoInstant } from './query-filters.ts';

describe('parseIsoInstant', () => {
  it('reads a date as the start or the end of that Australia/Sydney day, as the reports do', () => {
    // May: AEST, UTC+10.
    expect(parseIsoInstant('2030-05-01', 'start')?.toISOString()).toBe('2030-04-30T14:00:00.000Z');
    expect(parseIsoInstant('2030-05-01', 'end')?.toISOString()).toBe('2030-05-01T13:59:59.999Z');
    // January: AEDT, UTC+11.
    expect(parseIsoInstant('2030-01-15', 'start')?.toISOString()).toBe('2030-01-14T13:00:00.000Z');
    // The day daylight saving ends (2030-04-07) is 25 hours long.
    const start = parseIsoInstant('2030-04-07', 'start')!.getTime();
    expect(parseIsoInstant('2030-04-07', 'end')!.getTime() + 1 - start).toBe(25 * 3600_000);
  });

  it.each([
    ['2030-05-01T10:20:30Z', '2030-05-01T10:20:30.000Z'],
    ['2030-05-01T10:20:30.123Z', '2030-05-01T10:20:30.123Z'],
    ['2030-05-01T10:20:30+10:00', '2030-05-01T00:20:30.000Z'],
    ['2030-05-01T10:20:30+1000', '2030-05-01T00:20:30.000Z'],
    ['2030-05-01T10:20', '2030-05-01T10:20:00.000Z'],
    ['2030-05-01 10:20:30', '2030-05-01T10:20:30.000Z'],
  ])('reads %s', (input, expected) => {
    expect(parseIsoInstant(input, 'start')?.toISOString()).toBe(expected);
  });

  it.each(['yesterday', '2030-13-01', '2030-02-30', '2030-02-30T00:00:00Z', '1714000000', '', '2030-05-01T25:00:00Z'])(
    'refuses %j', (input) => {
      expect(parseIsoInstant(input, 'start')).toBeNull();
    });
});

describe('containsPattern', () => {
  it('wraps in wildcards and escapes LIKE metacharacters', () => {
    expect(containsPattern('+6141')).toBe('%+6141%');
    expect(containsPattern('1%_\\')).toBe('%1\\%\\_\\\\%');
  });
});
