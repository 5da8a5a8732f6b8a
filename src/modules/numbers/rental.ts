// Dedicated numbers cost credits. Pure rules; the repo and the renewal job apply them.

/** A rental period: a number is paid for 30 days at a time, from its lease. */
export const RENTAL_DAYS = 30;
/** After a renewal cannot be paid, the holder keeps the number this long before it returns to the pool. */
export const GRACE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The credits one period of a number costs: its monthly price (dollars) at the service's credit price (cents),
 * rounded up so the service never rents below its price. Free numbers (price 0) cost nothing.
 */
export function rentalCredits(priceMonthly: number, creditPriceCents: number): number {
  if (!(priceMonthly > 0)) return 0;
  // Work in whole cents first: 9.99 * 100 is 998.9999999999999 in floating point.
  const cents = Math.round(priceMonthly * 100);
  return Math.ceil(cents / creditPriceCents);
}

/** The end of the period that starts at `from`. */
export function periodEnd(from: Date): Date {
  return new Date(from.getTime() + RENTAL_DAYS * DAY_MS);
}

/** What the renewal job does with a number that is due and could not be paid at `now`. */
export function unpaidAction(unpaidSince: Date | null, now: Date): 'start_grace' | 'wait' | 'release' {
  if (unpaidSince === null) return 'start_grace';
  return now.getTime() - unpaidSince.getTime() >= GRACE_DAYS * DAY_MS ? 'release' : 'wait';
}
