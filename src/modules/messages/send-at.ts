/**
 * `send_at`: an ISO 8601 date-time WITH its offset (`Z` or `±hh:mm`): a time without one would have to guess a
 * zone. Accepted when it is in the future and at most 35 days ahead. Returns the instant, or why it is refused.
 */
export const MAX_SCHEDULE_DAYS = 35;

const WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

export type SendAt = { ok: true; at: Date } | { ok: false; reason: string };

export function parseSendAt(value: string, now: Date): SendAt {
  const m = WITH_OFFSET.exec(value.trim());
  if (!m) return { ok: false, reason: 'send_at must be an ISO 8601 date-time with an offset, such as 2030-05-01T09:00:00+10:00' };
  const [y, mo, d, h, mi] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
  // Date.parse rolls 2030-02-30 into March and accepts 24:00; neither is a real wall-clock time.
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d || h > 23 || mi > 59) {
    return { ok: false, reason: 'send_at is not a real date and time' };
  }
  const at = new Date(Date.parse(value.trim()));
  if (Number.isNaN(at.getTime())) return { ok: false, reason: 'send_at is not a real date and time' };
  if (at.getTime() <= now.getTime()) return { ok: false, reason: 'send_at is in the past' };
  if (at.getTime() > now.getTime() + MAX_SCHEDULE_DAYS * 86_400_000) {
    return { ok: false, reason: `send_at is more than ${MAX_SCHEDULE_DAYS} days ahead` };
  }
  return { ok: true, at };
}
