import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AppError } from '../../platform/errors.ts';
import { addDays, daysBetween, resolveRange } from './report-range.ts';

const at = (iso: string) => new Date(iso);
const codeOf = (fn: () => unknown) => {
  try { fn(); } catch (err) { return err instanceof AppError ? err.code : 'other'; }
  return 'none';
};

describe('resolveRange', () => {
  it('defaults to today in Sydney and 30 days before it', () => {
    // 20:00 UTC on 14 June is already 15 June in Sydney (UTC+10)
    const r = resolveRange({}, at('2025-06-14T20:00:00Z'));
    expect(r).toMatchObject({ from: '2025-05-16', to: '2025-06-15' });
    expect(r.start.toISOString()).toBe('2025-05-15T14:00:00.000Z');
    expect(r.end.toISOString()).toBe('2025-06-15T14:00:00.000Z');
  });

  it('ends at the Sydney midnight after `to`, across a daylight-saving change', () => {
    const r = resolveRange({ from: '2025-04-05', to: '2025-04-06' }, at('2025-06-01T00:00:00Z'));
    expect(r.start.toISOString()).toBe('2025-04-04T13:00:00.000Z'); // AEDT, UTC+11
    expect(r.end.toISOString()).toBe('2025-04-06T14:00:00.000Z'); // AEST, UTC+10: the 6th had 25 hours
  });

  it('takes `from` as 30 days before a given `to`', () => {
    expect(resolveRange({ to: '2025-03-01' }, at('2025-06-01T00:00:00Z'))).toMatchObject({ from: '2025-01-30', to: '2025-03-01' });
  });

  it('allows one day, and 366 days, and refuses 367', () => {
    expect(codeOf(() => resolveRange({ from: '2025-03-01', to: '2025-03-01' }, new Date()))).toBe('none');
    expect(codeOf(() => resolveRange({ from: '2024-01-01', to: '2024-12-31' }, new Date()))).toBe('none');
    expect(codeOf(() => resolveRange({ from: '2024-01-01', to: '2025-01-01' }, new Date()))).toBe('invalid_range');
  });

  it.each([
    [{ from: '2025-02-29', to: '2025-03-01' }, 'validation_failed'],
    [{ from: '2025-00-10', to: '2025-03-01' }, 'validation_failed'],
    [{ from: '2025-01-01', to: '2025-1-2' }, 'validation_failed'],
    [{ from: '2025-03-02', to: '2025-03-01' }, 'invalid_range'],
  ])('refuses %o with %s', (input, code) => {
    expect(codeOf(() => resolveRange(input, new Date()))).toBe(code);
  });

  it('always gives start < end and a span of at most 366 days', () => {
    fc.assert(fc.property(
      fc.date({ min: new Date('2000-01-01'), max: new Date('2099-01-01'), noInvalidDate: true }),
      fc.integer({ min: 0, max: 365 }),
      (d, span) => {
        const from = d.toISOString().slice(0, 10);
        const r = resolveRange({ from, to: addDays(from, span) }, new Date());
        const hours = (r.end.getTime() - r.start.getTime()) / 3_600_000;
        return r.start < r.end && hours >= 24 * (span + 1) - 1 && hours <= 24 * (span + 1) + 1;
      },
    ));
  });
});

describe('day arithmetic', () => {
  it('adds days across months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(daysBetween('2024-01-01', '2024-12-31')).toBe(365);
    expect(daysBetween('2025-03-02', '2025-03-01')).toBe(-1);
  });
});
