import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../platform/errors.ts';
import type { FailureCounter } from '../../platform/http/failure-counter.ts';

/**
 * Failed passwords and codes slow the guesser, not the user (docs/decisions/0057-sign-in-throttle.md). Failures
 * are counted per email, or per device cookie when the browser brings one that signed in to that email before
 * (OWASP's "device cookie"): strangers' failures never delay a known browser, and a known browser's failures
 * delay only itself. The first FREE failures cost nothing; each one after doubles the wait before the next try,
 * up to a quarter hour. A quiet hour starts the count again.
 */
export const EMAIL_THROTTLE = { free: 5, maxDelaySeconds: 900, idleMs: 60 * 60_000 } as const;

/** The wait (seconds) after the nth failure in a row: 0 for the free ones, then 2, 4, 8… up to the cap. */
export function delayAfter(failures: number): number {
  const over = failures - EMAIL_THROTTLE.free;
  if (over <= 0) return 0;
  return Math.min(EMAIL_THROTTLE.maxDelaySeconds, 2 ** Math.min(over, 20));
}

/** The device cookie: up to this many browsers' entries (newest first), one per email signed in from it. */
export const DEVICE_COOKIE = 'tasman_device';
const MAX_ENTRIES = 5;

export function createSignInThrottle(deps: { failures: FailureCounter; secretKey: Buffer; now?: () => number }) {
  const now = deps.now ?? Date.now;
  // A key of its own, derived from the secret key, so a device cookie's signature is useful for nothing else.
  const signingKey = createHmac('sha256', deps.secretKey).update('tasman device cookie v1').digest();
  const sign = (email: string, nonce: string) => createHmac('sha256', signingKey).update(`${email}\n${nonce}`).digest('base64url');

  const entries = (cookie: string | undefined) => (cookie ?? '').split('~').filter((e) => /^[\w-]{22}\.[\w-]{43}$/.test(e)).slice(0, MAX_ENTRIES);

  /** The nonce of the cookie's entry for this email when its signature holds, else null. */
  function trustedDevice(cookie: string | undefined, email: string): string | null {
    for (const entry of entries(cookie)) {
      const [nonce, signature] = entry.split('.') as [string, string];
      const expected = Buffer.from(sign(email, nonce));
      if (expected.length === signature.length && timingSafeEqual(expected, Buffer.from(signature))) return nonce;
    }
    return null;
  }

  /** The cookie value after a sign-in: this email's entry first (a new one unless it had one), others kept. */
  function deviceCookieAfterSignIn(cookie: string | undefined, email: string): string {
    const existing = trustedDevice(cookie, email);
    const nonce = existing ?? randomBytes(16).toString('base64url');
    const mine = `${nonce}.${sign(email, nonce)}`;
    return [mine, ...entries(cookie).filter((e) => e !== mine)].slice(0, MAX_ENTRIES).join('~');
  }

  // A known browser is throttled on its own key; everyone else shares the email's.
  const keyOf = (email: string, device: string | null) => (device ? `device:${device}` : `email:${email}`);

  /** Refuses (429 login_locked, Retry-After) while this client must wait after earlier failures. */
  async function refuseWhileDelayed(email: string, device: string | null): Promise<void> {
    const tally = await deps.failures.peek(keyOf(email, device), EMAIL_THROTTLE.idleMs, 'idle');
    if (!tally) return;
    const waitMs = tally.lastFailure + delayAfter(tally.count) * 1000 - now();
    if (waitMs > 0) {
      throw new AppError('login_locked', 'Too many failed sign-ins for this email: try again later', { retry_after: Math.ceil(waitMs / 1000) });
    }
  }

  async function failed(email: string, device: string | null): Promise<void> {
    await deps.failures.add(keyOf(email, device), EMAIL_THROTTLE.idleMs, 'idle');
  }

  async function succeeded(email: string, device: string | null): Promise<void> {
    await deps.failures.clear(keyOf(email, device));
  }

  return { trustedDevice, deviceCookieAfterSignIn, refuseWhileDelayed, failed, succeeded };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
