import { randomUUID } from 'node:crypto';
import { renewEvery, startHeartbeat } from './heartbeat.ts';
import type { QueueSignal } from './signal.ts';

/**
 * The one worker loop (README.md): claim → handle with bounded concurrency → complete. Every queue (the
 * dispatcher, the webhook worker, periodic jobs) runs on it, so waking, polling, lease renewal and draining on
 * stop are written once.
 *
 * - `claim(want, token, leaseMs)` takes up to `want` due rows with FOR UPDATE SKIP LOCKED, writing `token` (a
 *   fresh UUID per claim: the fencing token) and a lease of `leaseMs`. Completion is the handler's business and
 *   must be conditional on the row still holding the token.
 * - While an item is held (claimed, not yet finished) a heartbeat calls `renew` every `renewEveryMs`, so leases
 *   stay short: a dead worker's rows come back within `leaseMs` instead of after the slowest possible job.
 * - The loop wakes on the signal (in-process raise or NOTIFY), on a completion freeing a slot, at a time asked for
 *   with `wakeAt`, and otherwise polls every `pollMs`.
 * - `stop()` stops claiming, waits for every held item to finish (renewing their leases meanwhile) and returns.
 */
export interface Held<T> {
  item: T;
  token: string;
}

export interface JobContext {
  /** The claim's fencing token. */
  token: string;
  /**
   * Frees this item's concurrency slot before the handler returns (the item stays held, and its lease renewed,
   * until then): the dispatcher frees it when the SMSC answers (the bind keeps the window slot until `sent` is written).
   */
  release(): void;
}

export interface WorkerLoopOptions<T> {
  claim(want: number, token: string, leaseMs: number): Promise<T[]>;
  handle(item: T, job: JobContext): Promise<void>;
  /** Extends the leases of the items held here (conditional on their tokens). Without it, leases are not renewed. */
  renew?(held: Array<Held<T>>, leaseMs: number): Promise<void>;
  /** Items handled at once. */
  concurrency: number;
  /** Claim only when at least this many slots are free: fewer, larger claims under load (default 1). */
  claimAt?: number;
  /** Items held (released or not) beyond which claiming waits (default: no bound beyond `concurrency`). */
  maxHeld?: number;
  /** Claim only while this is true (the dispatcher: while the carrier is bound). */
  ready?(): boolean;
  /**
   * Whether this item's freed slot should wake the loop to claim (default: always). The signal, the poll and
   * `wakeAt` wake it regardless. The webhook worker says no while the slot would only let a claim take one row of
   * an endpoint at its cap.
   */
  wakeOnRelease?(item: T): boolean;
  signal?: Pick<QueueSignal, 'subscribe'>;
  /** The fallback poll, for a missed notification or work coming due (default 1 s). */
  pollMs?: number;
  /** How long a claim holds a row without renewal (default 15 s). */
  leaseMs?: number;
  /** The heartbeat (default leaseMs / 3). */
  renewEveryMs?: number;
  logger: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  /** Names the loop in logs. */
  name: string;
}

export interface StopOptions {
  /** How long to let held items finish before calling onGraceExpired (default: wait for ever). */
  graceMs?: number;
  /** Makes the held items finish now (abort their I/O); the loop still waits for them to return. */
  onGraceExpired?(): Promise<void>;
}

export const DEFAULT_LEASE_MS = 15_000;

export function createWorkerLoop<T>(options: WorkerLoopOptions<T>) {
  const { logger, name } = options;
  const concurrency = Math.max(1, options.concurrency);
  const claimAt = Math.min(concurrency, Math.max(1, options.claimAt ?? 1));
  const maxHeld = options.maxHeld ?? Number.POSITIVE_INFINITY;
  const pollMs = options.pollMs ?? 1_000;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const renewEveryMs = options.renewEveryMs ?? renewEvery(leaseMs);

  let active = 0;
  const held = new Set<Held<T>>();
  let stopping = false;
  let woken = false;
  let wakeWaiter: (() => void) | null = null;
  const idleWaiters: Array<() => void> = [];
  let loopDone: Promise<void> = Promise.resolve();
  let unsubscribe: (() => Promise<void>) | null = null;
  let stopHeartbeat: (() => void) | null = null;
  let alarm: { at: number; timer: NodeJS.Timeout } | null = null;

  const wake = () => {
    woken = true;
    wakeWaiter?.();
  };

  const pause = (ms: number) => new Promise<void>((resolve) => {
    if (woken || stopping) { resolve(); return; }
    const done = () => { clearTimeout(timer); wakeWaiter = null; resolve(); };
    const timer = setTimeout(done, ms);
    wakeWaiter = done;
  });

  function run(item: T, token: string): void {
    const entry: Held<T> = { item, token };
    held.add(entry);
    active++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      active--;
      if (!options.wakeOnRelease || options.wakeOnRelease(item)) wake();
    };
    options.handle(item, { token, release })
      // The lease runs out and the row is claimed again: nothing is lost.
      .catch((err: Error) => logger.error({ err: err.message, loop: name }, 'handling a claimed item failed'))
      .finally(() => {
        release();
        held.delete(entry);
        if (held.size === 0) for (const fn of idleWaiters.splice(0)) fn();
      });
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      woken = false;
      const free = concurrency - active;
      if (free < claimAt || held.size >= maxHeld || (options.ready && !options.ready())) {
        await pause(pollMs);
        continue;
      }
      const token = randomUUID();
      let items: T[];
      try {
        items = await options.claim(free, token, leaseMs);
      } catch (err) {
        logger.warn({ err: (err as Error).message, loop: name }, 'claim failed');
        await pause(pollMs);
        continue;
      }
      for (const item of items) run(item, token);
      // Fewer than asked for: nothing more is due now.
      if (items.length < free) await pause(pollMs);
    }
  }

  return {
    async start(): Promise<void> {
      if (options.signal) unsubscribe = await options.signal.subscribe(wake);
      const renew = options.renew;
      if (renew) {
        stopHeartbeat = startHeartbeat({
          everyMs: renewEveryMs,
          beat: async () => { if (held.size > 0) await renew([...held], leaseMs); },
          onError: (err) => logger.warn({ err: err.message, loop: name }, 'renewing leases failed'),
        });
      }
      loopDone = loop();
    },
    /** Work may be waiting: claim now rather than at the next poll. */
    wake,
    /** Claim again at `at` (ms since the epoch), e.g. when a retry falls due; keeps the earliest. */
    wakeAt(at: number): void {
      if (stopping || (alarm && alarm.at <= at)) return;
      if (alarm) clearTimeout(alarm.timer);
      const timer = setTimeout(() => { alarm = null; wake(); }, Math.max(at - Date.now(), 0) + 5);
      timer.unref();
      alarm = { at, timer };
    },
    /** Stops claiming, then waits for every held item (their leases renewed meanwhile). */
    async stop(stop: StopOptions = {}): Promise<void> {
      stopping = true;
      if (alarm) clearTimeout(alarm.timer);
      wake();
      await loopDone;
      await unsubscribe?.();
      if (held.size > 0) {
        const drained = new Promise<void>((resolve) => idleWaiters.push(resolve));
        let grace: NodeJS.Timeout | undefined;
        const inTime = stop.graceMs === undefined ? await drained.then(() => true) : await Promise.race([
          drained.then(() => true),
          new Promise<boolean>((resolve) => { grace = setTimeout(() => resolve(false), stop.graceMs); }),
        ]);
        clearTimeout(grace);
        if (!inTime) {
          await stop.onGraceExpired?.();
          await drained;
        }
      }
      stopHeartbeat?.();
    },
    /** Items being handled (for health and logs). */
    inFlight: () => held.size,
    /** Slots free now (concurrency less the items whose slot is not released). */
    free: () => (stopping ? 0 : concurrency - active),
    /**
     * Handles items already held under `token` without a claim (a row inserted leased to this loop): from here
     * they are like claimed ones, renewed by the heartbeat and waited for on stop. Not while stopping: their
     * leases then run out and a claim takes them.
     */
    adopt(items: T[], token: string): boolean {
      if (stopping) return false;
      for (const item of items) run(item, token);
      return true;
    },
  };
}

export type WorkerLoop = ReturnType<typeof createWorkerLoop>;
