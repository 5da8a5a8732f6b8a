import { randomBytes } from 'node:crypto';

/** Digits, upper case, lower case: the characters of the codes in opt-out links and short links. */
export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// 248 = 4 × 62: bytes at or above it are discarded so every character is exactly equally likely.
const LIMIT = 256 - (256 % BASE62_ALPHABET.length);

/** `length` uniformly random base62 characters from a CSPRNG (rejection sampling, no modulo bias). */
export function randomBase62(length: number, random: (n: number) => Buffer = randomBytes): string {
  let code = '';
  while (code.length < length) {
    // Ask for a few spare bytes so a rejection rarely needs a second call.
    for (const byte of random(length + 2)) {
      if (byte >= LIMIT) continue;
      code += BASE62_ALPHABET[byte % BASE62_ALPHABET.length];
      if (code.length === length) break;
    }
  }
  return code;
}
