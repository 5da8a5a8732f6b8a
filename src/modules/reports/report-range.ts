import { AppError } from '../../platform/errors.ts';
import { sydneyDay, sydneyDayEndExclusive, sydneyDayStart } from '../../platform/sydney-day.ts';

/** The longest report: a leap year, counted inclusively (`from` and `to` both included). */
export const MAX_REPORT_DAYS = 366;
/** `from` when omitted: this many days before `to` (so the default range holds 31 Sydney days). */
export const DEFAULT_REPORT_DAYS_BACK = 30;

export interface ReportRange {
  /** the days as asked for (or defaulted), echoed in the response */
  from: string;
  to: string;
  /** [start, end): local midnight in Sydney at the start of `from`, and at the start of the day after `to` */
  start: Date;
  end: Date;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

function invalidDay(field: string, value: string): AppError {
  return new AppError('validation_failed', `${field} must be a calendar date YYYY-MM-DD, got "${value}"`, {
    details: [{ field, message: 'must be a calendar date YYYY-MM-DD' }],
  });
}

/** Calendar arithmetic on `YYYY-MM-DD`, done in UTC where days are all 24 hours. */
export function addDays(day: string, delta: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + delta);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `a` to `b` (`b` later gives a positive number). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

function boundary(field: string, value: string, at: (day: string) => Date): Date {
  if (!DAY_RE.test(value)) throw invalidDay(field, value);
  try {
    return at(value);
  } catch {
    throw invalidDay(field, value);
  }
}

/**
 * Resolves the report's `from` and `to` into Sydney day boundaries. Defaults: `to` is today in Sydney, `from` is
 * 30 days before `to` (so a lone past `to` still gives a 31-day report rather than an inverted range). Throws 400 validation_failed for a day that is
 * not a real date, invalid_range when `from` is after `to` or the range holds more than 366 days.
 */
export function resolveRange(input: { from?: string; to?: string }, now: Date): ReportRange {
  const today = sydneyDay(now);
  const to = input.to ?? today;
  const end = boundary('to', to, sydneyDayEndExclusive);
  const from = input.from ?? addDays(to, -DEFAULT_REPORT_DAYS_BACK);
  const start = boundary('from', from, sydneyDayStart);
  const span = daysBetween(from, to);
  if (span < 0) throw new AppError('invalid_range', `from (${from}) is after to (${to})`);
  if (span + 1 > MAX_REPORT_DAYS) {
    throw new AppError('invalid_range', `A report covers at most ${MAX_REPORT_DAYS} days; ${from} to ${to} is ${span + 1}`);
  }
  return { from, to, start, end };
}
