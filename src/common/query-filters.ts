// Pure parsing for list filters (GET /inbox, GET /messages).
import { sydneyDayEndExclusive, sydneyDayStart } from '../platform/sydney-day.ts';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 date or date-time as an instant. A date alone is an Australia/Sydney day, the same rule as the
 * reports' `from`/`to` (one rule for every date-only parameter): its start for `date_from`, its last
 * millisecond for `date_to`, so `date_to=2030-05-01` includes all of that day. A date-time without a zone is
 * UTC (never the server's local time). Returns null when the value is not such a date or does not exist.
 */
export function parseIsoInstant(value: string, edge: 'start' | 'end'): Date | null {
  const v = value.trim();
  const day = DATE_ONLY.exec(v);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = Date.UTC(y, m - 1, d);
    const check = new Date(start);
    if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
    return edge === 'start' ? sydneyDayStart(v) : new Date(sydneyDayEndExclusive(v).getTime() - 1);
  }
  if (!DATE_TIME.test(v)) return null;
  const normalised = v.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const withZone = /(Z|[+-]\d{2}:\d{2})$/i.test(normalised) ? normalised : `${normalised}Z`;
  const ms = Date.parse(withZone);
  if (Number.isNaN(ms)) return null;
  // Date.parse rolls 2030-02-30 over into March; the calendar date must survive the round trip.
  const [y, mo, d] = normalised.slice(0, 10).split('-').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return null;
  return new Date(ms);
}

/** The sender filter as a LIKE pattern: a partial match anywhere in the number, wildcards taken literally. */
export function containsPattern(fragment: string): string {
  return `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
