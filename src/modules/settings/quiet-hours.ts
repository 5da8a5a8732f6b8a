/**
 * Quiet hours in the recipient's local time: when a message would arrive inside the window it
 * is held until the window ends. Pure calendar arithmetic over the runtime's time-zone data (Intl), so daylight
 * saving follows the zone's rules and the tests can fix the clock.
 *
 * The window is wall-clock time: 21:00–08:00 means from 21:00 local until the local clock next shows 08:00, on
 * any day, whatever its length. Inside is `start ≤ t < end` (spanning midnight when end < start). The end is the
 * first instant after the message's time at which the local clock reads `end`:
 * - on the night clocks go back, an `end` that happens twice is the first of the two still ahead;
 * - on the night clocks go forward, an `end` the clock skips (02:30 when 02:00 jumps to 03:00) is the jump itself,
 *   the first instant the clock has passed it.
 */
import type { QuietHours } from './account-settings.ts';
import { minutesOf } from './account-settings.ts';
import { wallTimeIn } from '../../platform/sydney-day.ts';

/** Where a recipient's clock is: New Zealand has one zone; Australian mobiles carry no state, so the account's. */
export function recipientTimeZone(country: 'AU' | 'NZ' | string, accountZone: string): string {
  return country === 'NZ' ? 'Pacific/Auckland' : accountZone;
}

interface Wall { year: number; month: number; day: number; minutes: number }

function wallOf(ms: number, zone: string): Wall & { second: number } {
  const w = wallTimeIn(ms, zone);
  return { year: w.year, month: w.month, day: w.day, minutes: w.hour * 60 + w.minute, second: w.second };
}

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(ms: number, zone: string): number {
  const w = wallOf(ms, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, 0, w.minutes, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** `Date.UTC` of a wall time, as if the zone were UTC (the "naive" instant). */
const naive = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, 0, w.minutes);

const sameWall = (ms: number, w: Wall, zone: string) => {
  const got = wallOf(ms, zone);
  return got.year === w.year && got.month === w.month && got.day === w.day && got.minutes === w.minutes && got.second === 0;
};

/**
 * The first instant after `afterMs` at which the zone's clock reads the wall time `w`; when the clock skips `w`
 * (a spring-forward gap), the instant it jumps over it.
 */
function firstInstantOf(w: Wall, zone: string, afterMs: number): number {
  const n = naive(w);
  // No zone's offset changes twice within two days: the offsets a day either side are the only candidates.
  const offsets = [...new Set([offsetAt(n - 86_400_000, zone), offsetAt(n + 86_400_000, zone)])];
  const found = offsets.map((o) => n - o).filter((ms) => ms > afterMs && sameWall(ms, w, zone)).sort((a, b) => a - b);
  if (found.length > 0) return found[0]!;
  // A gap: between the two readings of `w` lies the jump. Bisect to the minute at which the offset changes.
  let lo = Math.min(...offsets.map((o) => n - o));
  let hi = Math.max(...offsets.map((o) => n - o));
  const before = offsetAt(lo, zone);
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (offsetAt(mid, zone) === before) lo = mid; else hi = mid;
  }
  return hi;
}

/** Whether a local time (minutes after midnight) lies inside the window. */
export function insideWindow(minutes: number, q: QuietHours): boolean {
  const start = minutesOf(q.start);
  const end = minutesOf(q.end);
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

/**
 * When a message due at `at` must wait until, for a recipient in `zone`: the end of the quiet window it falls in,
 * or null when it falls outside (or there is no window).
 */
export function quietUntil(at: Date, q: QuietHours | null, zone: string): Date | null {
  if (q === null) return null;
  const ms = at.getTime();
  const local = wallOf(ms, zone);
  if (!insideWindow(local.minutes, q)) return null;
  const end = minutesOf(q.end);
  // The end is later today when the local time is before it; otherwise (after the start, spanning midnight) tomorrow.
  const day = local.minutes < end ? local : (() => {
    const next = new Date(Date.UTC(local.year, local.month - 1, local.day + 1));
    return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
  })();
  return new Date(firstInstantOf({ year: day.year, month: day.month, day: day.day, minutes: end }, zone, ms));
}

/**
 * When a message to a recipient in `country` goes: the ISO instant it waits for (`scheduled`), or null to queue it
 * now. A message due inside the account's quiet window (at its send_at, else now) is held to the window's end,
 * unless it is urgent; held, never refused.
 */
export function releaseTime(opts: {
  sendAt: string | null; now: Date; urgent: boolean | undefined; country: string;
  settings: { quietHours: QuietHours | null; timeZone: string };
}): string | null {
  if (opts.urgent || opts.settings.quietHours === null) return opts.sendAt;
  const due = opts.sendAt === null ? opts.now : new Date(opts.sendAt);
  const held = quietUntil(due, opts.settings.quietHours, recipientTimeZone(opts.country, opts.settings.timeZone));
  return held ? held.toISOString() : opts.sendAt;
}
