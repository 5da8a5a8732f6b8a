import { randomBytes } from 'node:crypto';
import { BASE62_ALPHABET, randomBase62 } from '../../common/random-code.ts';

/**
 * One-tap opt-out link codes: 7 base62 characters (62^7 ≈ 3.5e12), one per recipient and message.
 * Codes are unguessable enough that enumerating them is impractical at any sane rate limit, and short enough to
 * keep the SMS within one segment where possible. Short links (modules/links) share the base with 8 characters.
 */

export const OPTOUT_CODE_ALPHABET = BASE62_ALPHABET;
export const OPTOUT_CODE_LENGTH = 7;

export function generateOptoutCode(random: (n: number) => Buffer = randomBytes): string {
  return randomBase62(OPTOUT_CODE_LENGTH, random);
}

/** Cheap shape check so a route can answer 404 without a database query for obviously bad codes. */
export function isOptoutCode(value: string): boolean {
  return /^[0-9A-Za-z]{7}$/.test(value);
}
