import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';

// SMPP 3.4 limits a bind's system_id to 15 octets and its password to 8: the secret is shorter than an API key's,
// so it is hashed with the system_id as salt (no two credentials share a hash input), and failed binds are
// throttled per address like failed sign-ins.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LOWER = '0123456789abcdefghijklmnopqrstuvwxyz';
export const SYSTEM_ID_PREFIX = 'tsm';
const SYSTEM_ID_RANDOM = 10;
export const PASSWORD_LENGTH = 8;

function pick(alphabet: string, length: number): string {
  // Bytes at or above the largest multiple of the alphabet's size are skipped so every character is equally likely.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export const hashSmppPassword = (systemId: string, password: string): string =>
  createHash('sha256').update(`${systemId}\0${password}`).digest('hex');

export function generateCredentialSecret(): { systemId: string; password: string; hash: string } {
  const systemId = SYSTEM_ID_PREFIX + pick(LOWER, SYSTEM_ID_RANDOM);
  const password = pick(ALPHABET, PASSWORD_LENGTH);
  return { systemId, password, hash: hashSmppPassword(systemId, password) };
}

/** Compares a bind's password with the stored hash in constant time. */
export function passwordMatches(systemId: string, password: string, hash: string): boolean {
  const given = Buffer.from(hashSmppPassword(systemId, password), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** An address or a CIDR block (`203.0.113.0/24`, `2001:db8::/32`) in its written form; null when it is neither. */
export function parseCidr(value: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, extra] = value.trim().split('/');
  if (extra !== undefined) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether `address` (a socket's remote address) is inside one of the blocks; an empty list allows every address. */
export function addressAllowed(blocks: readonly string[], address: string): boolean {
  if (blocks.length === 0) return true;
  const list = new BlockList();
  for (const block of blocks) {
    const parsed = parseCidr(block);
    if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  // An IPv4 peer on a dual-stack socket appears as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped ? mapped[1]! : address;
  const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  return isIP(plain) !== 0 && list.check(plain, family);
}
