import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSmppTime } from './smpp-time.ts';
import { relativePeriod, relativeValidity } from '../smpp/smpp-carrier.ts';

const now = new Date('2026-01-31T10:00:00Z');

describe('SMPP time fields', () => {
  it('reads an empty field as not given', () => {
    expect(parseSmppTime('', now)).toEqual({ ok: true, at: null });
  });

  it('reads absolute times with their offset from UTC in quarter hours', () => {
    expect(parseSmppTime('260201120000044+', now)).toEqual({ ok: true, at: new Date('2026-02-01T01:00:00Z') });
    expect(parseSmppTime('260201120000000+', now)).toEqual({ ok: true, at: new Date('2026-02-01T12:00:00Z') });
    expect(parseSmppTime('260201120000004-', now)).toEqual({ ok: true, at: new Date('2026-02-01T13:00:00Z') });
  });

  it('reads relative times from now', () => {
    expect(parseSmppTime('000002013000000R', now)).toEqual({ ok: true, at: new Date('2026-02-02T11:30:00Z') });
    expect(parseSmppTime('000000000010000R', now)).toEqual({ ok: true, at: new Date('2026-01-31T10:00:10Z') });
  });

  it('refuses what is not a time', () => {
    for (const bad of ['2602011200', '261301120000000+', '260230120000000+', '260201250000000+', '26020112000000X+', '260201120000000?']) {
      expect(parseSmppTime(bad, now).ok).toBe(false);
    }
  });
});

describe('the relative validity Tasman gives its carrier', () => {
  it('reads back as the same number of seconds from now, whole seconds and at least one', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 99 * 86_400 + 86_399 }), (seconds) => {
      expect(parseSmppTime(relativePeriod(seconds), now)).toEqual({ ok: true, at: new Date(now.getTime() + seconds * 1000) });
    }));
    expect(relativePeriod(5400.7)).toBe('000000013000000R');
    expect(relativePeriod(-3)).toBe('000000000001000R');
    expect(relativeValidity(48)).toBe('000002000000000R');
    expect(() => relativePeriod(100 * 86_400)).toThrow(RangeError);
  });
});
