import { createHash, randomBytes } from 'node:crypto';

/** Every Tasman API key starts with this, so leaked keys are easy to recognise and scan for. */
export const KEY_PREFIX = 'tsm_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 32 base62 characters carry 190 bits of randomness. */
const SECRET_LENGTH = 32;
/** Characters shown as `prefix`: the fixed part and the first 8 secret characters. */
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;

function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: bytes above it are skipped so every character is equally likely.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = KEY_PREFIX + base62(SECRET_LENGTH);
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

/** Cheap shape check so garbage never reaches the database. */
export function looksLikeApiKey(token: string): boolean {
  return token.length === KEY_PREFIX.length + SECRET_LENGTH && token.startsWith(KEY_PREFIX) && /^[0-9A-Za-z]+$/.test(token.slice(KEY_PREFIX.length));
}
