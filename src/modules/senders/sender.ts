import { normalisePhone, type PhoneCountry } from '../../common/phone.ts';
import { AppError } from '../../platform/errors.ts';
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

/**
 * An alphanumeric Sender ID as it may be registered or requested (decision 0017): 3 to 11 letters, digits, spaces
 * or `& . _ -`, with a letter; anything else is validation_failed on `field`.
 */
export function parseSenderId(raw: string, field = 'sender_id'): string {
  const parsed = parseSender(raw, 'AU');
  if (parsed === null || parsed === 'invalid' || parsed.kind !== 'alpha' || parsed.senderId.length < 3) {
    throw new AppError('validation_failed', 'A Sender ID is 3 to 11 letters, digits or spaces and contains a letter', {
      details: [{ field, message: 'must be 3 to 11 characters with a letter' }],
    });
  }
  return parsed.senderId;
}
