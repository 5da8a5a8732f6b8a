import { normalisePhone, type PhoneCountry } from '../../common/phone.ts';
import type { RequestedSender } from './senders.repo.ts';

/**
 * Reads the `sender` (or `from`) a client gave. Digits are a dedicated number; anything else is an alphanumeric
 * Sender ID, which carriers cap at 11 characters. 'invalid' can never be allowed, so it is refused at once.
 */
export function parseSender(raw: string | undefined | null, home: PhoneCountry): RequestedSender | 'invalid' {
  if (raw === undefined || raw === null) return null;
  const value = raw.trim();
  if (value === '') return null;
  if (/^[+\d\s().-]+$/.test(value)) {
    const phone = normalisePhone(value, home);
    return phone.ok ? { kind: 'number', e164: phone.e164 } : 'invalid';
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9 &._-]{1,10}$/.test(value) || !/[A-Za-z]/.test(value)) return 'invalid';
  return { kind: 'alpha', senderId: value };
}
