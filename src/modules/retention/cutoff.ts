/**
 * The smallest UUID v7 of the millisecond `at`: every v7 id minted before `at` sorts below it (ids compare as
 * bytes and begin with the 48-bit Unix time), so `id < uuidv7Floor(t)` walks a primary key in time order.
 */
export function uuidv7Floor(at: Date): string {
  const ms = at.getTime();
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError('Invalid Date');
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

/** Content created before this instant is past retention. */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 86_400_000);
}
