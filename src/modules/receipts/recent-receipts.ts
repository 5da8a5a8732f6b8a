import type { Receipt } from '../../carrier/carrier.ts';
import { DEFAULT_CARRIER } from '../../carrier/carrier.ts';

// An SMSC that thinks a deliver_sm_resp lost sends the receipt again. The copy is recognised here, in memory:
// while the first is still being committed the copy waits for that commit (never acknowledged before it), and
// once it has committed the copy is answered at once, with no statement, no second apply and no second webhook.
// Receipts from another process, or older than this memory, reach the database, where "final once" absorbs them.

const KEEP = 20_000;
const KEEP_MS = 10 * 60_000;

/** What identifies one receipt: an id reused for a newer message gives a different state or done time. */
const fingerprint = (r: Receipt): string =>
  [r.carrier ?? DEFAULT_CARRIER, r.smscMessageId, r.state, r.errorCode ?? '', r.doneAt?.getTime() ?? ''].join('\u0000');

export function createRecentReceipts<T>(now: () => number = Date.now) {
  const inProgress = new Map<string, Promise<T>>();
  // Committed receipts, oldest first (a Map iterates in insertion order), with what they answered.
  const done = new Map<string, { at: number; answer: T }>();
  let copies = 0;

  const forget = () => {
    const cutoff = now() - KEEP_MS;
    for (const [key, entry] of done) {
      if (done.size <= KEEP && entry.at >= cutoff) break;
      done.delete(key);
    }
  };

  return {
    /**
     * Runs `apply` for a receipt not seen lately; a copy of one in progress waits for its commit, a copy of one
     * committed answers at once with the first one's answer.
     */
    async once(receipt: Receipt, apply: () => Promise<T>): Promise<T> {
      const key = fingerprint(receipt);
      const committed = done.get(key);
      if (committed) { copies++; return committed.answer; }
      const running = inProgress.get(key);
      if (running) { copies++; return running; }
      const work = apply();
      inProgress.set(key, work);
      try {
        const answer = await work;
        done.set(key, { at: now(), answer });
        forget();
        return answer;
      } finally {
        inProgress.delete(key);
      }
    },
    /** Copies recognised so far (resent receipts answered without a second apply). */
    copies: () => copies,
  };
}
