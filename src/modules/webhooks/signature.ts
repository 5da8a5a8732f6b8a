import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures: `X-Service-Signature: sha256=<lower-case hex HMAC-SHA256 of the raw body bytes>` (the
 * document's, repeated under every configured header prefix), and Standard Webhooks' `webhook-signature`.
 * The HMAC is always computed over the exact bytes sent; a string body is hashed as its UTF-8 encoding, which is
 * what goes on the wire, so signing the stored body text and posting it produce matching bytes.
 */

const PREFIX = 'sha256=';
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 33;

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
 * A new signing secret: `whsec_` followed by 33 random bytes in standard base64 (44 characters, no padding).
 * Two readings of the one string, so a receiver needs one secret for every header:
 * - the document's `sha256=` signature uses the whole string, prefix included, as the HMAC key, exactly as shown
 *   to the client (the official libraries' READMEs do this);
 * - Standard Webhooks (`webhook-signature`) uses the bytes the base64 after `whsec_` decodes to, which is what
 *   the `standardwebhooks` packages do with a `whsec_` secret. Standard base64 (not base64url), and a byte count
 *   divisible by 3 (no `=` padding), so every Standard Webhooks library decodes it.
 * The prefix makes a leaked secret easy to recognise (secret scanners, logs).
 */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/**
 * The Standard Webhooks key of a secret: the bytes its base64 part decodes to. Secrets made before Standard
 * Webhooks were base64url; Node's decoder reads both alphabets, so those keep working here too.
 */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/**
 * Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, with the timestamp in whole seconds.
 * With several secrets (the 24 hours after a rotation) the header carries one signature per secret, separated
 * by spaces, newest first; a receiver accepts the request when any of them matches its secret.
 */
export function standardSignature(secrets: readonly string[], id: string, timestampSec: number, body: string | Buffer): string {
  // Two updates hash the same bytes as one over their concatenation, without copying the body.
  return secrets.map((s) => `v1,${createHmac('sha256', standardKey(s)).update(`${id}.${timestampSec}.`).update(body).digest('base64')}`).join(' ');
}
