/**
 * Calendar days in Australia/Sydney, where the service's days begin (sub-account daily limits count messages
 * accepted since local midnight). Sydney is UTC+10, or UTC+11 under daylight saving, which starts at 02:00 on the
 * first Sunday of October and ends at 03:00 on the first Sunday of April. Transitions never touch midnight, so
 * every local day has exactly one midnight; days are 23, 24 or 25 hours long.
 *
 * Time-zone rules come from the runtime's ICU data through Intl, never from a hard-coded offset table.
 */

export const SYDNEY_TIME_ZONE = 'Australia/Sydney';

export type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** One formatter per zone, built once and kept: constructing Intl formatters is far slower than using them. */
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock reading in `zone` at an instant (the runtime's ICU rules, DST included). */
export function wallTimeIn(instantMs: number, zone: string): WallTime {
  let wallClock = wallClocks.get(zone);
  if (!wallClock) {
    wallClock = new Intl.DateTimeFormat('en-AU', {
      timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    });
    wallClocks.set(zone, wallClock);
  }
  const fields: Record<string, number> = {};
  for (const part of wallClock.formatToParts(instantMs)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? NaN,
    month: fields.month ?? NaN,
    day: fields.day ?? NaN,
    hour: fields.hour ?? NaN,
    minute: fields.minute ?? NaN,
    second: fields.second ?? NaN,
  };
}

const wallTime = (instantMs: number): WallTime => wallTimeIn(instantMs, SYDNEY_TIME_ZONE);

/** Sydney's offset from UTC at an instant, in milliseconds (whole seconds; sub-second part of the instant dropped). */
function offsetAt(instantMs: number): number {
  const w = wallTime(instantMs);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instantMs / 1000) * 1000;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function isoDay(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** Parses `YYYY-MM-DD`, refusing anything that is not a real calendar date (`2025-02-30`). */
function parseDay(day: string): { year: number; month: number; day: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (match !== null) {
    const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const probe = new Date(Date.UTC(year, month - 1, date));
    // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear undoes that so the round trip below is honest.
    probe.setUTCFullYear(year);
    if (probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === date) {
      return { year, month, day: date };
    }
  }
  throw new RangeError(`Not a calendar day (YYYY-MM-DD): ${JSON.stringify(day)}`);
}

// The last day computed and the instants it spans: every send asks for today, and formatting a date through
// Intl each time showed up in profiles.
let memo = { from: 0, to: 0, day: '' };

/** The Sydney calendar day, `YYYY-MM-DD`, that contains the instant `date`. */
export function sydneyDay(date: Date): string {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new RangeError('Invalid Date');
  if (ms >= memo.from && ms < memo.to) return memo.day;
  const w = wallTime(ms);
  const day = isoDay(w.year, w.month, w.day);
  memo = { from: sydneyDayStart(day).getTime(), to: sydneyDayEndExclusive(day).getTime(), day };
  return day;
}

/** The instant at which the Sydney day `day` (`YYYY-MM-DD`) begins: its local midnight. */
export function sydneyDayStart(day: string): Date {
  const { year, month, day: date } = parseDay(day);
  const naive = Date.UTC(year, month - 1, date);
  // Local midnight is naive minus the offset in force at midnight. The first guess uses the offset at `naive`
  // (10–11 am local that day); the second pass corrects it when a transition lies between the two, as on the
  // first Sundays of April and October.
  const guess = naive - offsetAt(naive);
  return new Date(naive - offsetAt(guess));
}

/** The instant at which the Sydney day after `day` begins: the exclusive end of `day`. */
export function sydneyDayEndExclusive(day: string): Date {
  const { year, month, day: date } = parseDay(day);
  const next = new Date(Date.UTC(year, month - 1, date + 1));
  return sydneyDayStart(isoDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()));
}
