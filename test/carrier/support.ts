// Shared helpers for the carrier TCP tests: a handler recorder with event-based waits (no sleeps).
import type { CarrierHandlers, InboundSms, Receipt } from '../../src/carrier/carrier.ts';
import { pollUntil } from '../support/poll.ts';

export interface Recorder extends CarrierHandlers {
  receipts: Receipt[];
  inbound: InboundSms[];
  /** Resolves with the first recorded receipt (past or future) matching the predicate. */
  receipt(match: (r: Receipt) => boolean, timeoutMs?: number): Promise<Receipt>;
  inboundWhere(match: (m: InboundSms) => boolean, timeoutMs?: number): Promise<InboundSms>;
  /** Make the next `n` handler calls reject (the SMSC should then resend). */
  failNext(n: number): void;
}

export function createRecorder(): Recorder {
  const receipts: Receipt[] = [];
  const inbound: InboundSms[] = [];
  const listeners = new Set<() => void>();
  let failures = 0;
  const notify = (): void => { for (const l of [...listeners]) l(); };
  const failIfAsked = (): void => {
    if (failures > 0) { failures--; throw new Error('handler failure requested by test'); }
  };

  function waitFor<T>(list: T[], match: (x: T) => boolean, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = list.find(match);
        if (found === undefined) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`timed out waiting for ${what}; have ${JSON.stringify(list)}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  }

  return {
    receipts,
    inbound,
    async onReceipt(r) { failIfAsked(); receipts.push(r); notify(); },
    async onInbound(m) { failIfAsked(); inbound.push(m); notify(); },
    receipt: (match, timeoutMs = 20_000) => waitFor(receipts, match, timeoutMs, 'a receipt'),
    inboundWhere: (match, timeoutMs = 20_000) => waitFor(inbound, match, timeoutMs, 'an inbound message'),
    failNext(n) { failures = n; },
  };
}

/** Resolves when `fn` returns true, looking every 10 ms (for in-process state that has no event). */
export async function until(fn: () => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  await pollUntil(fn, Boolean, what, timeoutMs, 10);
}
