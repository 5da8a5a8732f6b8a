import { AppError } from '../platform/errors.ts';

/** An Australian Business Number as stored: its 11 digits, spaces removed. Operator and sub-account routes share it. */
export function normaliseAbn(abn: string): string {
  const digits = abn.replace(/\s+/g, '');
  if (!/^\d{11}$/.test(digits)) throw new AppError('validation_failed', 'An ABN is 11 digits', { details: [{ field: 'abn', message: 'must be 11 digits' }] });
  return digits;
}
