import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { insideWindow, quietUntil, recipientTimeZone } from './quiet-hours.ts';

const NIGHT = { start: '21:00', end: '08:00' };
const SYD = 'Australia/Sydney';
const AKL = 'Pacific/Auckland';
const at = (iso: string) => new Date(iso);
const until = (iso: string, q = NIGHT, zone = SYD) => quietUntil(at(iso), q, zone)?.toISOString() ?? null;
const iso = (s: string) => new Date(s).toISOString();

// Transitions in 2026, from the zones' published rules (not from the code under test):
// Sydney: DST ends Sun 5 Apr 03:00 AEDT → 02:00 AEST (16:00Z on the 4th); starts Sun 4 Oct 02:00 AEST → 03:00 AEDT
// (16:00Z on the 3rd). Auckland: ends Sun 5 Apr 03:00 NZDT → 02:00 NZST (14:00Z on the 4th); starts Sun 27 Sep
// 02:00 NZST → 03:00 NZDT (14:00Z on the 26th).

describe('quietUntil on ordinary days', () => {
  it.each([
    ['22:00 in winter: until 08:00 next morning', '2026-07-15T22:00:00+10:00', '2026-07-16T08:00:00+10:00'],
    ['21:00 exactly: the start is inside', '2026-07-15T21:00:00+10:00', '2026-07-16T08:00:00+10:00'],
    ['after midnight: until 08:00 the same day', '2026-07-16T03:15:00+10:00', '2026-07-16T08:00:00+10:00'],
    ['07:59:59: one second before the end', '2026-07-16T07:59:59+10:00', '2026-07-16T08:00:00+10:00'],
    ['summer time, across a month end', '2026-01-31T23:30:00+11:00', '2026-02-01T08:00:00+11:00'],
    ['across a year end', '2026-12-31T22:00:00+11:00', '2027-01-01T08:00:00+11:00'],
  ])('%s', (_why, sent, expected) => {
    expect(until(sent)).toBe(iso(expected));
  });

  it.each([
    ['08:00 exactly: the end is outside', '2026-07-16T08:00:00+10:00'],
    ['midday', '2026-07-16T12:00:00+10:00'],
    ['20:59:59', '2026-07-16T20:59:59+10:00'],
  ])('%s: not held', (_why, sent) => {
    expect(until(sent)).toBeNull();
  });

  it('a window that does not span midnight', () => {
    const lunch = { start: '12:00', end: '13:30' };
    expect(until('2026-07-16T12:45:00+10:00', lunch)).toBe(iso('2026-07-16T13:30:00+10:00'));
    expect(until('2026-07-16T13:30:00+10:00', lunch)).toBeNull();
    expect(until('2026-07-16T11:59:00+10:00', lunch)).toBeNull();
  });

  it('no window: never held', () => {
    expect(quietUntil(at('2026-07-16T23:00:00+10:00'), null, SYD)).toBeNull();
  });

  it('a zone without daylight saving (Perth, UTC+8)', () => {
    expect(until('2026-01-10T22:00:00+08:00', NIGHT, 'Australia/Perth')).toBe(iso('2026-01-11T08:00:00+08:00'));
  });
});

describe('quietUntil across daylight-saving transitions', () => {
  it('Sydney, clocks forward: the night is an hour shorter (23:00 AEST → 08:00 AEDT is 8 hours)', () => {
    const sent = at('2026-10-03T23:00:00+10:00');
    const end = quietUntil(sent, NIGHT, SYD)!;
    expect(end.toISOString()).toBe(iso('2026-10-04T08:00:00+11:00'));
    expect(end.getTime() - sent.getTime()).toBe(8 * 3_600_000);
  });

  it('Sydney, clocks back: the night is an hour longer (23:00 AEDT → 08:00 AEST is 10 hours)', () => {
    const sent = at('2026-04-04T23:00:00+11:00');
    const end = quietUntil(sent, NIGHT, SYD)!;
    expect(end.toISOString()).toBe(iso('2026-04-05T08:00:00+10:00'));
    expect(end.getTime() - sent.getTime()).toBe(10 * 3_600_000);
  });

  it('Sydney, an end the clock skips (02:30 on the night 02:00 becomes 03:00) ends at the jump', () => {
    const q = { start: '22:00', end: '02:30' };
    expect(until('2026-10-03T23:00:00+10:00', q)).toBe(iso('2026-10-04T03:00:00+11:00'));
    expect(until('2026-10-04T01:59:00+10:00', q)).toBe(iso('2026-10-04T03:00:00+11:00'));
  });

  it('Sydney, an end the clock shows twice (02:30 on the night 03:00 becomes 02:00): the first still ahead', () => {
    const q = { start: '22:00', end: '02:30' };
    expect(until('2026-04-04T23:00:00+11:00', q)).toBe(iso('2026-04-05T02:30:00+11:00'));
    // After the clock went back, 02:10 AEST is inside again, and only the second 02:30 is ahead.
    expect(until('2026-04-05T02:10:00+10:00', q)).toBe(iso('2026-04-05T02:30:00+10:00'));
    // After the first 02:30 and before the clock goes back (02:40 AEDT): outside.
    expect(until('2026-04-05T02:40:00+11:00', q)).toBeNull();
  });

  it('Auckland, clocks forward on its own date (27 September), a week before Sydney', () => {
    const sent = at('2026-09-26T23:00:00+12:00');
    expect(quietUntil(sent, NIGHT, AKL)!.toISOString()).toBe(iso('2026-09-27T08:00:00+13:00'));
    // The same instant for a Sydney recipient: 21:00 AEST, inside, and Sydney has not changed its clocks yet.
    expect(quietUntil(sent, NIGHT, SYD)!.toISOString()).toBe(iso('2026-09-27T08:00:00+10:00'));
  });

  it('Auckland, clocks back', () => {
    expect(until('2026-04-04T22:30:00+13:00', NIGHT, AKL)).toBe(iso('2026-04-05T08:00:00+12:00'));
  });
});

describe('recipientTimeZone', () => {
  it('New Zealand numbers are in Auckland whatever the account says; Australian ones in the account zone', () => {
    expect(recipientTimeZone('NZ', 'Australia/Perth')).toBe(AKL);
    expect(recipientTimeZone('AU', 'Australia/Perth')).toBe('Australia/Perth');
    expect(recipientTimeZone('AU', SYD)).toBe(SYD);
  });
});

describe('quietUntil properties', () => {
  const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  const windows = fc.tuple(hhmm, hhmm).filter(([s, e]) => s !== e).map(([start, end]) => ({ start, end }));
  // 2025–2028, whole minutes and odd seconds alike.
  const instants = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2028, 11, 31) }).map((ms) => new Date(ms));
  const zones = fc.constantFrom(SYD, AKL, 'Australia/Perth', 'Australia/Adelaide', 'Australia/Lord_Howe');

  it('held exactly when inside; the end is later, outside the window, within a day, and nothing before it is outside', () => {
    const localMinutes = (d: Date, zone: string) => {
      const [h, m] = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d).split(':');
      return Number(h) * 60 + Number(m);
    };
    fc.assert(fc.property(instants, windows, zones, (sent, q, zone) => {
      const end = quietUntil(sent, q, zone);
      expect(end === null).toBe(!insideWindow(localMinutes(sent, zone), q));
      if (end === null) return;
      expect(end.getTime()).toBeGreaterThan(sent.getTime());
      expect(end.getTime() - sent.getTime()).toBeLessThanOrEqual(25 * 3_600_000);
      expect(insideWindow(localMinutes(end, zone), q)).toBe(false);
      // The minute before the end (and the sending minute) are inside: the hold is no longer than it must be.
      const before = new Date(Math.max(sent.getTime(), end.getTime() - 60_000));
      expect(insideWindow(localMinutes(before, zone), q)).toBe(true);
    }), { numRuns: 500 });
  });
});
