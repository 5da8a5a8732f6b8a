// Wall-clock times in the account's time zone, whatever zone the browser is in. The API wants `send_at` with an
// explicit offset (a bare local time would have to guess a zone), so the date-time picker's value is turned into
// an instant here, in the account's zone, with the offset that zone has at that instant (DST included).

export const DEFAULT_ZONE = 'Australia/Sydney';

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallClock(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock reading in `zone` at `ms`, as if that reading were UTC (milliseconds). */
function readingAsUtc(ms: number, zone: string): number {
  const p = Object.fromEntries(wallClock(zone).formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
}

/** The zone's offset from UTC at an instant, in minutes (Sydney in winter: 600). */
export function offsetMinutes(ms: number, zone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((readingAsUtc(whole, zone) - whole) / 60_000);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const pad = (n: number) => String(n).padStart(2, '0');
function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/**
 * `YYYY-MM-DDTHH:mm` (what `<input type="datetime-local">` gives) read in `zone`, as ISO 8601 with that zone's
 * offset, e.g. `2030-05-01T09:00:00+10:00`. Null when the text is not such a time or the time does not exist in
 * the zone (the hour skipped when clocks go forward). A time that happens twice (clocks going back) is the first.
 */
export function zonedToIso(local: string, zone: string): string | null {
  const m = LOCAL.exec(local);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(asUtc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return null;
  // The offset can differ on either side of a transition: try the offsets in force a day before and a day after
  // (earliest instant first), and keep the first that reads back as the same wall clock.
  const candidates = [...new Set([offsetMinutes(asUtc - 86_400_000, zone), offsetMinutes(asUtc + 86_400_000, zone)])]
    .map((off) => ({ off, at: asUtc - off * 60_000 }))
    .sort((a, b) => a.at - b.at);
  const hit = candidates.find(({ at }) => readingAsUtc(at, zone) === asUtc);
  return hit ? `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:00${formatOffset(hit.off)}` : null;
}

/** An instant as `YYYY-MM-DDTHH:mm` in `zone` (a value for `<input type="datetime-local">`). */
export function isoToZoned(iso: string | number | Date, zone: string): string {
  const ms = new Date(iso).getTime();
  return new Date(readingAsUtc(ms, zone)).toISOString().slice(0, 16);
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether a picker value (`YYYY-MM-DDTHH:mm`, or `HH:mm`) falls inside the quiet window `start`–`end` (a window
 * with start after end spans midnight), as the server decides it for recipients in the account's zone.
 */
export function inQuietHours(local: string, quiet: { start: string; end: string } | null): boolean {
  const m = /(\d{2}:\d{2})$/.exec(local);
  if (!quiet || !m) return false;
  const t = minutesOf(m[1]!);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  return start < end ? t >= start && t < end : t >= start || t < end;
}
