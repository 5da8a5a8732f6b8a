import { randomUUID } from 'node:crypto';
import type { WebhookEvent } from './outbox.ts';
import type { ClaimedDelivery } from './delivery.repo.ts';

/**
 * The first attempt of a delivery without a claim (decision 0074). Where the webhook worker runs in the process
 * that records the event (the receipt batch), the delivery is inserted already leased to a claim of that worker
 * (`lease_until`, `next_attempt_at` at the lease's end and `claim_token`, as a claim would write them) and handed
 * to the worker after the commit: one insert instead of an insert and a claim update. Everything after that is
 * the claimed path's: the heartbeat renews the lease, the outcome is recorded conditional on the token, and if
 * the process dies the lease runs out and any worker claims the row (at least once, same delivery id).
 *
 * Only as many as the worker has room for are born claimed (its pool and each endpoint's cap, reserved when the
 * transaction inserts them); the rest are inserted due, for a claim.
 */
export interface FirstAttempts {
  /** The claim the deliveries are born under. */
  readonly token: string;
  readonly leaseMs: number;
  /** In the transaction, before the insert: reserves a slot for each event it can take now (true) or not. */
  reserve(items: Array<{ accountId: string; event: WebhookEvent }>): boolean[];
  /** In the transaction: the deliveries inserted under the claim, with their endpoints as they are now. */
  inserted(rows: ClaimedDelivery[]): void;
  /** After the commit: the inserted deliveries go to the worker; unused reservations are released. */
  committed(): void;
  /** The transaction rolled back: every reservation is released, nothing is attempted. */
  cancel(): void;
}

/** The webhook worker's side: slots and the start of a held attempt. */
export interface FirstAttemptPort {
  /** Takes a slot for this endpoint if the pool and its cap allow it now; false otherwise. */
  take(accountId: string, event: WebhookEvent): boolean;
  /** Gives back a slot `take` gave that no attempt used. */
  give(accountId: string, event: WebhookEvent): void;
  /** Starts attempts for deliveries held under `token` (their slots already taken). */
  start(rows: ClaimedDelivery[], token: string): void;
  leaseMs: number;
}

export function createFirstAttempts(port: FirstAttemptPort): FirstAttempts {
  const token = randomUUID();
  const taken: Array<{ accountId: string; event: WebhookEvent }> = [];
  let rows: ClaimedDelivery[] = [];
  let done = false;
  const releaseUnused = (used: ClaimedDelivery[]) => {
    const left = new Map<string, number>();
    for (const r of used) left.set(`${r.accountId}|${r.event}`, (left.get(`${r.accountId}|${r.event}`) ?? 0) + 1);
    for (const t of taken) {
      const key = `${t.accountId}|${t.event}`;
      const n = left.get(key) ?? 0;
      if (n > 0) left.set(key, n - 1);
      else port.give(t.accountId, t.event);
    }
  };
  return {
    token,
    leaseMs: port.leaseMs,
    reserve(items) {
      return items.map((i) => {
        if (done || !port.take(i.accountId, i.event)) return false;
        taken.push(i);
        return true;
      });
    },
    inserted(r) { rows = r; },
    committed() {
      if (done) return;
      done = true;
      // An event whose account has no endpoint receiving it was not inserted: its slot is given back.
      releaseUnused(rows);
      if (rows.length > 0) port.start(rows, token);
    },
    cancel() {
      if (done) return;
      done = true;
      releaseUnused([]);
    },
  };
}

/** Where the receipt service finds this process's webhook worker: set while one runs here, else null. */
export type FirstAttemptSlot = { current: (() => FirstAttempts) | null };
