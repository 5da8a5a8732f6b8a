// SMPP 3.4 time fields (schedule_delivery_time, validity_period; section 7.1.1): 16 characters YYMMDDhhmmsstnnp.
// p is '+' or '-' for an absolute time nn quarter hours ahead of or behind UTC, 'R' for a time relative to now
// (YY years, MM months, DD days, hh:mm:ss); t, tenths of a second, is ignored. Empty means "not given".

export type SmppTime = { ok: true; at: Date | null } | { ok: false; reason: string };

const FORM = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d)(\d{2})([+\-R])$/;

export function parseSmppTime(value: string, now: Date): SmppTime {
  if (value === '') return { ok: true, at: null };
  const m = FORM.exec(value);
  if (!m) return { ok: false, reason: `"${value}" is not YYMMDDhhmmsstnnp` };
  const [yy, mo, dd, hh, mi, ss] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const nn = Number(m[8]);
  const p = m[9]!;
  if (p === 'R') {
    // Calendar arithmetic in UTC: a month ahead of 31 January is 3 March, as Date does it.
    const at = new Date(now.getTime());
    at.setUTCFullYear(at.getUTCFullYear() + yy, at.getUTCMonth() + mo, at.getUTCDate() + dd);
    at.setTime(at.getTime() + ((hh * 60 + mi) * 60 + ss) * 1000);
    return { ok: true, at };
  }
  if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 59 || nn > 48) {
    return { ok: false, reason: `"${value}" is not a date and time` };
  }
  const local = Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss);
  const check = new Date(local);
  if (check.getUTCDate() !== dd) return { ok: false, reason: `"${value}" is not a date` };
  const offsetMs = nn * 15 * 60_000 * (p === '+' ? 1 : -1);
  return { ok: true, at: new Date(local - offsetMs) };
}

/** YYMMDDhhmm in UTC: the date format of the receipt text's `submit date` and `done date`. */
export const receiptDate = (d: Date): string => d.toISOString().replace(/[-:T]/g, '').slice(2, 12);
