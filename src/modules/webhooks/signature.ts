import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures: `X-Service-Signature: sha256=<lower-case hex HMAC-SHA256 of the raw body bytes>`.
 * The HMAC is always computed over the exact bytes sent; a string body is hashed as its UTF-8 encoding, which is
 * what goes on the wire, so signing the stored body text and posting it produce matching bytes.
 */

const PREFIX = 'sha256=';
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function signBody(secret: string, body: string | Buffer): string {
  return PREFIX + createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Constant-time comparison of the expected signature with a received header. Malformed headers (wrong prefix,
 * wrong length, non-hex) are rejected before the comparison; that early exit only reveals the header's shape,
 * which the caller chose, never anything about the expected digest.
 */
export function verifySignature(secret: string, body: string | Buffer, header: string | null | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith(PREFIX)) return false;
  const hex = header.slice(PREFIX.length);
  // Accept upper-case hex from lenient senders; Buffer.from(…, 'hex') silently drops bad characters, so check.
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
  const received = Buffer.from(hex, 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(received, expected);
}

/**
 * A new signing secret: `whsec_` followed by 32 random bytes in base64url (43 characters, no padding).
 * The whole string, prefix included, is the HMAC key, exactly as shown to the client: receivers paste it into
 * their verifier and must not need to decode anything. The prefix makes a leaked secret easy to recognise
 * (secret scanners, logs).
 */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}
