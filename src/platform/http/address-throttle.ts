import { AppError, type ErrorCode } from '../errors.ts';
import type { FailureCounter } from './failure-counter.ts';

/** The refusals that mean "a wrong secret": a wrong password or code, operator token, invite or reset token. */
const FAILED: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['invalid_credentials', 'invalid_code', 'invite_invalid', 'reset_invalid', 'unauthorized']);
export const ADDRESS_WINDOW_MS = 60_000;

/**
 * Failed attempts at a secret (sign-ins, operator tokens, invite and reset tokens) per source address: beyond
 * `limit` in a minute, that address's further failures answer 429 with Retry-After until the minute passes. Only
 * failures count and only failures are refused: the attempt always runs, so a right credential from a busy
 * address (an office behind one NAT) still succeeds (docs/decisions/0057-sign-in-throttle.md).
 */
export function createAddressThrottle(deps: { failures: FailureCounter; limit: number; now?: () => number }) {
  const now = deps.now ?? Date.now;

  /** Counts one failure from `address`; the 429 to answer instead when it is beyond the limit, else null. */
  async function failed(address: string): Promise<AppError | null> {
    const tally = await deps.failures.add(`addr:${address}`, ADDRESS_WINDOW_MS, 'fixed');
    if (tally.count <= deps.limit) return null;
    const retryAfter = Math.max(1, Math.ceil((tally.windowStart + ADDRESS_WINDOW_MS - now()) / 1000));
    return new AppError('too_many_failures', 'Too many failed attempts from this address: wait a minute', { retry_after: retryAfter });
  }

  /** Runs one attempt; a failure counts against the address, and beyond the limit answers 429 instead. */
  async function guard<T>(address: string, attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt();
    } catch (err) {
      if (err instanceof AppError && FAILED.has(err.code)) throw (await failed(address)) ?? err;
      throw err;
    }
  }

  return { failed, guard };
}

export type AddressThrottle = ReturnType<typeof createAddressThrottle>;
