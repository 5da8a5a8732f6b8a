import { randomBytes } from 'node:crypto';

/**
 * One-tap opt-out link codes: 7 base62 characters (62^7 ≈ 3.5e12), one per recipient and message.
 * Codes are unguessable enough that enumerating them is impractical at any sane rate limit, and short enough to
 * keep the SMS within one segment where possible.
 */

export const OPTOUT_CODE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const OPTOUT_CODE_LENGTH = 7;

// 248 = 4 × 62: bytes at or above it are discarded so every character is exactly equally likely.
const LIMIT = 256 - (256 % OPTOUT_CODE_ALPHABET.length);

export function generateOptoutCode(random: (n: number) => Buffer = randomBytes): string {
  let code = '';
  while (code.length < OPTOUT_CODE_LENGTH) {
    // Ask for a few spare bytes so a rejection rarely needs a second call.
    for (const byte of random(OPTOUT_CODE_LENGTH + 2)) {
      if (byte >= LIMIT) continue;
      code += OPTOUT_CODE_ALPHABET[byte % OPTOUT_CODE_ALPHABET.length];
      if (code.length === OPTOUT_CODE_LENGTH) break;
    }
  }
  return code;
}

/** Cheap shape check so a route can answer 404 without a database query for obviously bad codes. */
export function isOptoutCode(value: string): boolean {
  return /^[0-9A-Za-z]{7}$/.test(value);
}
