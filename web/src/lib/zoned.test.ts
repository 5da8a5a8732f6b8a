import { describe, expect, it } from 'vitest';
import { inQuietHours, isoToZoned, offsetMinutes, zonedToIso } from './zoned.ts';

// Calendar facts, not the test machine's zone: Sydney leaves daylight time at 03:00 on the first Sunday of April
// (back to 02:00) and enters it at 02:00 on the first Sunday of October (on to 03:00); Auckland does the same on
// the first Sunday of April and the last Sunday of September. In 2030 those are 7 April, 6 October and 29 September.
describe('zonedToIso', () => {
  it('uses the zone\'s offset at that date, not the browser\'s', () => {
    expect(zonedToIso('2030-05-01T09:00', 'Australia/Sydney')).toBe('2030-05-01T09:00:00+10:00');
    expect(zonedToIso('2030-01-15T09:00', 'Australia/Sydney')).toBe('2030-01-15T09:00:00+11:00');
    expect(zonedToIso('2030-01-15T09:00', 'Pacific/Auckland')).toBe('2030-01-15T09:00:00+13:00');
    expect(zonedToIso('2030-07-01T23:59', 'Australia/Perth')).toBe('2030-07-01T23:59:00+08:00');
    expect(zonedToIso('2030-07-01T08:30', 'UTC')).toBe('2030-07-01T08:30:00+00:00');
  });

  it('refuses the hour skipped when clocks go forward, and takes the first of the hour that happens twice', () => {
    expect(zonedToIso('2030-10-06T02:30', 'Australia/Sydney')).toBeNull();
    expect(zonedToIso('2030-10-06T01:59', 'Australia/Sydney')).toBe('2030-10-06T01:59:00+10:00');
    expect(zonedToIso('2030-10-06T03:00', 'Australia/Sydney')).toBe('2030-10-06T03:00:00+11:00');
    expect(zonedToIso('2030-09-29T02:15', 'Pacific/Auckland')).toBeNull();
    expect(zonedToIso('2030-04-07T02:30', 'Australia/Sydney')).toBe('2030-04-07T02:30:00+11:00');
    expect(zonedToIso('2030-04-07T03:00', 'Australia/Sydney')).toBe('2030-04-07T03:00:00+10:00');
  });

  it('refuses what is not a real wall-clock time', () => {
    for (const bad of ['', '2030-02-30T09:00', '2030-13-01T09:00', '2030-05-01T24:00', '2030-05-01 09:00', '2030-05-01T09:00Z']) {
      expect(zonedToIso(bad, 'Australia/Sydney'), bad).toBeNull();
    }
  });

  it('round-trips through isoToZoned every half hour across both 2030 transitions', () => {
    for (const zone of ['Australia/Sydney', 'Pacific/Auckland', 'Australia/Adelaide']) {
      for (let ms = Date.UTC(2030, 3, 5); ms < Date.UTC(2030, 3, 9); ms += 1_800_000) check(ms, zone);
      for (let ms = Date.UTC(2030, 8, 27); ms < Date.UTC(2030, 9, 8); ms += 1_800_000) check(ms, zone);
    }
    function check(ms: number, zone: string) {
      const local = isoToZoned(ms, zone);
      const iso = zonedToIso(local, zone);
      expect(iso, `${zone} ${local}`).not.toBeNull();
      // The second reading of a repeated hour maps back to the first: an hour earlier, same wall clock.
      const back = Date.parse(iso!);
      expect([0, 3_600_000]).toContain(ms - back);
      expect(isoToZoned(back, zone)).toBe(local);
    }
  });

  it('knows Adelaide\'s half-hour offset', () => {
    expect(offsetMinutes(Date.UTC(2030, 5, 1), 'Australia/Adelaide')).toBe(570);
    expect(zonedToIso('2030-06-01T12:00', 'Australia/Adelaide')).toBe('2030-06-01T12:00:00+09:30');
  });
});

describe('inQuietHours', () => {
  const night = { start: '21:30', end: '07:45' };
  it('spans midnight when the window starts after it ends: start inside, end outside', () => {
    expect(inQuietHours('2030-05-01T21:29', night)).toBe(false);
    expect(inQuietHours('2030-05-01T21:30', night)).toBe(true);
    expect(inQuietHours('2030-05-01T00:00', night)).toBe(true);
    expect(inQuietHours('2030-05-01T07:44', night)).toBe(true);
    expect(inQuietHours('2030-05-01T07:45', night)).toBe(false);
    expect(inQuietHours('12:00', night)).toBe(false);
  });
  it('handles a daytime window, and no window or no time at all', () => {
    const lunch = { start: '12:00', end: '13:00' };
    expect(inQuietHours('2030-05-01T12:30', lunch)).toBe(true);
    expect(inQuietHours('2030-05-01T13:00', lunch)).toBe(false);
    expect(inQuietHours('2030-05-01T23:00', lunch)).toBe(false);
    expect(inQuietHours('2030-05-01T23:00', null)).toBe(false);
    expect(inQuietHours('', night)).toBe(false);
  });
});
