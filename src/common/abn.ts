import { AppError } from '../platform/errors.ts';

/** An Australian Business Number as stored: its 11 digits, spaces removed. Operator and sub-account routes share it. */
export function normaliseAbn(abn: string): string {
  const digits = abn.replace(/\s+/g, '');
  if (!/^\d{11}$/.test(digits)) throw new AppError('validation_failed', 'An ABN is 11 digits', { details: [{ field: 'abn', message: 'must be 11 digits' }] });
  return digits;
}

// The ABN check digits (the Australian Business Register's rule): take 1 from the first digit, weight the eleven
// digits 10, 1, 3, 5, …, 19, and the sum is a multiple of 89.
const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/** Whether 11 digits pass the ABN checksum. */
export function abnChecksumValid(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  const sum = [...digits].reduce((total, d, i) => total + (Number(d) - (i === 0 ? 1 : 0)) * WEIGHTS[i]!, 0);
  return sum % 89 === 0;
}

/** `normaliseAbn`, and refused unless its check digits are right (an ABN an account types for itself). */
export function checkedAbn(abn: string): string {
  const digits = normaliseAbn(abn);
  if (!abnChecksumValid(digits)) {
    throw new AppError('validation_failed', 'That is not a valid ABN (its check digits do not match)', { details: [{ field: 'abn', message: 'fails the ABN checksum' }] });
  }
  return digits;
}
