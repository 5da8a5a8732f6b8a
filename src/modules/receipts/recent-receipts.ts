import type { Receipt } from '../../carrier/carrier.ts';
import { DEFAULT_CARRIER } from '../../carrier/carrier.ts';

// An SMSC that thinks a deliver_sm_resp lost sends the receipt again, and in a burst (acknowledgements slowed by
// the burst itself) the copies would feed the storm. A copy that arrives while the first is being applied is
// recognised here and answered with the first, when that commits (never before): no statement of its own, no
// second apply, no second webhook. A copy after that commit reaches the database, where the batch finds the
// message final and changes nothing. Only in-flight receipts are remembered: an id the SMSC reuses for a newer
// message can carry the very same text, and a receipt taken for a copy of an older one would be lost.

/** What identifies one receipt. */
const fingerprint = (r: Receipt): string =>
  [r.carrier ?? DEFAULT_CARRIER, r.smscMessageId, r.state, r.errorCode ?? '', r.doneAt?.getTime() ?? ''].join('\u0000');

export function createRecentReceipts<T>() {
  const inProgress = new Map<string, Promise<T>>();
  let copies = 0;
  return {
    /** Runs `apply`, unless the same receipt is being applied: then answers with that one, after its commit. */
    async once(receipt: Receipt, apply: () => Promise<T>): Promise<T> {
      const key = fingerprint(receipt);
      const running = inProgress.get(key);
      if (running) { copies++; return running; }
      const work = apply();
      inProgress.set(key, work);
      try {
        return await work;
      } finally {
        inProgress.delete(key);
      }
    },
    /** Copies recognised so far (resent receipts answered without an apply of their own). */
    copies: () => copies,
  };
}
