import type { PhoneCountry } from '../../common/phone.ts';
import type { AccountSettings, QuietHours } from '../../common/account-settings.ts';

/**
 * An account's settings: quiet hours, the time zone of its Australian recipients, whether links are tracked by
 * default, and the country its local numbers are read in. Stored in `accounts.settings` (jsonb) and read with the
 * key or session lookup, so the send path knows them without a query. Pure: no database, no Intl formatting beyond checking a zone's name.
 */

export type { AccountSettings, QuietHours } from '../../common/account-settings.ts';

export const DEFAULT_TIME_ZONE = 'Australia/Sydney';

export const DEFAULT_COUNTRY: PhoneCountry = 'AU';

export const DEFAULT_SETTINGS: AccountSettings = Object.freeze({
  quietHours: null, timeZone: DEFAULT_TIME_ZONE, linkTracking: false, country: DEFAULT_COUNTRY, lowBalanceThreshold: null,
  twoFactorRequired: false,
});

/** `HH:MM`, 00:00–23:59. */
export const CLOCK_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
const CLOCK_TIME_RE = new RegExp(CLOCK_TIME_PATTERN);

/** Minutes after local midnight of an `HH:MM` time. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

const zoneCache = new Map<string, string | null>();

/**
 * The runtime's canonical name for an IANA time zone (its ICU data), or null when the runtime does not know it.
 * Offsets such as `+10:00` and `UTC`-style abbreviations other than `UTC` itself are refused: a quiet window must
 * follow the recipients' daylight saving, which a fixed offset cannot.
 */
export function canonicalTimeZone(zone: string): string | null {
  if (zoneCache.has(zone)) return zoneCache.get(zone)!;
  let found: string | null = null;
  if (/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone) && zone.length <= 64) {
    try {
      found = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      found = null;
    }
  }
  if (zoneCache.size < 1000) zoneCache.set(zone, found);
  return found;
}

/** Why a quiet window is refused, or null when it is usable. */
export function quietHoursProblem(q: QuietHours): string | null {
  if (!CLOCK_TIME_RE.test(q.start) || !CLOCK_TIME_RE.test(q.end)) return 'quiet_hours start and end are local times as HH:MM (00:00 to 23:59)';
  if (q.start === q.end) return 'quiet_hours start and end must differ (null turns quiet hours off)';
  return null;
}

/**
 * The stored jsonb as settings, every missing or unusable field at its default: rows written before a field
 * existed (or by hand) never break a send.
 */
export function readSettings(stored: unknown): AccountSettings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const q = s.quiet_hours as Partial<QuietHours> | null | undefined;
  const quietHours = q && typeof q.start === 'string' && typeof q.end === 'string' && quietHoursProblem(q as QuietHours) === null
    ? { start: q.start, end: q.end }
    : null;
  const zone = typeof s.time_zone === 'string' ? canonicalTimeZone(s.time_zone) : null;
  return {
    quietHours,
    timeZone: zone ?? DEFAULT_TIME_ZONE,
    linkTracking: typeof s.link_tracking === 'boolean' ? s.link_tracking : DEFAULT_SETTINGS.linkTracking,
    country: s.country === 'NZ' || s.country === 'AU' ? s.country : DEFAULT_COUNTRY,
    lowBalanceThreshold: Number.isSafeInteger(s.low_balance_threshold) && (s.low_balance_threshold as number) > 0 ? s.low_balance_threshold as number : null,
    twoFactorRequired: s.two_factor_required === true,
  };
}

/** The API's (and the stored jsonb's) snake_case shape. */
export interface SettingsView {
  quiet_hours: QuietHours | null;
  time_zone: string;
  link_tracking: boolean;
  country: PhoneCountry;
  low_balance_threshold: number | null;
}

export const toSettingsView = (s: AccountSettings): SettingsView => ({
  quiet_hours: s.quietHours, time_zone: s.timeZone, link_tracking: s.linkTracking, country: s.country, low_balance_threshold: s.lowBalanceThreshold,
});
