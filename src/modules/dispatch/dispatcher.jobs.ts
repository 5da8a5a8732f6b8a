import type { Carrier, SubmitResult } from '../../carrier/carrier.ts';
import type { Db } from '../../platform/db/client.ts';
import { claimBatch, failAndRefund, recordSent, scheduleRetry, type Claimed, type SentRecord } from './dispatch.repo.ts';
import { DEFAULT_RETRY, retryDelayMs, shouldGiveUp, type RetryPolicy } from './retry-policy.ts';

export interface DispatchLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface DispatcherDeps {
  db: Db;
  carrier: Carrier;
  /** Wakes the dispatcher when messages are queued (in-process, and NOTIFY across processes). */
  signal?: { subscribe(fn: () => void): Promise<() => Promise<void>> };
  /**
   * Applies receipts that overtook their submit_sm_resp, once the ids are recorded. `submitted` / `recorded`
   * bracket the batched write of accepted submits, so a receipt arriving in between (in this process) waits for
   * the commit instead of being parked and resolved later, which costs several statements per message.
   */
  receipts: {
    resolveParked(smscIds: string[]): Promise<number>;
    submitted?(smscIds: string[]): void;
    recorded?(smscIds: string[]): void;
  };
  /** Wakes the webhook worker after a message failed at submit (its message.dlr `rejected` event is recorded). */
  onEvents?: () => void;
  /** Submits in flight at once (SMPP_WINDOW): the carrier's own window is the real limit, this keeps it fed. */
  window: number;
  /** How long a claim is held. Longer than the slowest submit, or a live worker's message would be reclaimed. */
  leaseMs?: number;
  /** The fallback poll, for a missed notification or a retry coming due. */
  pollMs?: number;
  retry?: RetryPolicy;
  logger: DispatchLogger;
}

const WRITE_BATCH = 500;
// Accepted submits whose `sent` write is still pending: beyond this, claiming waits for the database to catch up.
const MAX_UNWRITTEN = 2 * WRITE_BATCH;

/**
 * The dispatcher role (see README.md): claims queued messages with a lease, submits them through the carrier
 * port, and records the outcome only while the claim is still its own. Accepted submits are written in batches,
 * so the database keeps up with the link.
 */
export function createDispatcher(deps: DispatcherDeps) {
  const { db, carrier, logger } = deps;
  const leaseMs = deps.leaseMs ?? 120_000;
  const pollMs = deps.pollMs ?? 1_000;
  const policy = deps.retry ?? DEFAULT_RETRY;
  const window = Math.max(1, deps.window);
  // Claim again once a quarter of the window is free: fewer, larger claims under load.
  const claimAt = Math.max(1, Math.ceil(window / 4));

  let stopping = false;
  let inFlight = 0;
  // Accepted submits not yet written. They no longer hold a window slot (the SMSC has answered), so the next
  // claim need not wait for the write; stop() still waits for them.
  let unwritten = 0;
  let woken = false;
  let wakeWaiter: (() => void) | null = null;
  const idleWaiters: Array<() => void> = [];
  let loopDone: Promise<void> = Promise.resolve();
  let unsubscribe: (() => Promise<void>) | null = null;

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

  // Accepted submits wait here for the next batched write.
  const toWrite: Array<{ record: SentRecord; done: () => void }> = [];
  let writing = false;

  async function writeSent(batch: SentRecord[]): Promise<Set<string>> {
    // A submit the SMSC accepted must be recorded: if it is not, the lease runs out and the message goes twice.
    for (let attempt = 0; ; attempt++) {
      try {
        return await recordSent(db, batch);
      } catch (err) {
        if (attempt >= 8) throw err;
        logger.warn({ err: (err as Error).message, attempt }, 'dispatcher: recording sent messages failed, retrying');
        await new Promise((r) => setTimeout(r, Math.min(5_000, 250 * 2 ** attempt)));
      }
    }
  }

  const smscIdsOf = (r: SentRecord) => r.segmentIds ?? [r.smscMessageId];
  // Parked receipts are looked for after each write, off the write loop: the next batch need not wait for it,
  // and the submits' window slots are free already. stop() waits for it (a receipt parked before our commit
  // that we did not look for would stay parked).
  let parkedWork: Promise<void> = Promise.resolve();

  async function flush(): Promise<void> {
    if (writing) return;
    writing = true;
    try {
      while (toWrite.length > 0) {
        const batch = toWrite.splice(0, WRITE_BATCH);
        try {
          const recorded = await writeSent(batch.map((b) => b.record));
          const lost = batch.filter((b) => !recorded.has(b.record.id));
          if (lost.length > 0) logger.warn({ ids: lost.map((b) => b.record.id) }, 'dispatcher: claim lost before the submit was recorded');
          const smscIds = batch.filter((b) => recorded.has(b.record.id)).flatMap((b) => smscIdsOf(b.record));
          parkedWork = parkedWork.then(() => deps.receipts.resolveParked(smscIds))
            .then(() => {}, (err: Error) => logger.warn({ err: err.message }, 'dispatcher: applying parked receipts failed'));
        } catch (err) {
          logger.error({ err: (err as Error).message, count: batch.length }, 'dispatcher: could not record sent messages');
        } finally {
          // Committed (or given up): receipts waiting for these ids go ahead; any that find nothing park.
          deps.receipts.recorded?.(batch.flatMap((b) => smscIdsOf(b.record)));
          for (const b of batch) b.done();
        }
      }
    } finally {
      writing = false;
    }
  }

  const recordLater = (record: SentRecord): void => {
    unwritten++;
    toWrite.push({ record, done: written });
    void flush();
  };

  async function submit(c: Claimed): Promise<SubmitResult> {
    if (c.body === null) return { ok: false, permanent: true, errorCode: 'content_deleted', message: 'the body was removed' };
    try {
      return await carrier.submit({ id: c.id, from: c.sender, to: c.recipient, text: c.body, receipt: true });
    } catch (err) {
      return { ok: false, permanent: false, errorCode: 'carrier_error', message: (err as Error).message };
    }
  }

  async function handle(c: Claimed): Promise<void> {
    const result = await submit(c);
    if (result.ok) {
      deps.receipts.submitted?.(result.segmentIds ?? [result.smscMessageId]);
      recordLater({
        id: c.id, attempts: c.attempts, smscMessageId: result.smscMessageId, sentAt: new Date(),
        ...(result.segmentIds ? { segmentIds: result.segmentIds } : {}),
      });
      return;
    }
    if (result.permanent || shouldGiveUp(c.attempts, c.createdAt, new Date(), policy)) {
      const ours = await failAndRefund(db, c, result.errorCode);
      if (ours) deps.onEvents?.();
      logger.info({ id: c.id, errorCode: result.errorCode, permanent: result.permanent, attempts: c.attempts, refunded: ours }, 'dispatcher: message failed at submit');
      return;
    }
    const delay = retryDelayMs(c.attempts, policy);
    await scheduleRetry(db, c, result.errorCode, delay);
    logger.debug({ id: c.id, errorCode: result.errorCode, attempts: c.attempts, delay }, 'dispatcher: submit will be retried');
  }

  const idle = () => {
    if (inFlight === 0 && unwritten === 0) for (const fn of idleWaiters.splice(0)) fn();
  };

  function settle() {
    inFlight--;
    idle();
    wake();
  }

  function written() {
    unwritten--;
    idle();
    wake();
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      woken = false;
      const free = window - inFlight;
      if (free < claimAt || unwritten >= MAX_UNWRITTEN || !carrier.health().bound) {
        await pause(pollMs);
        continue;
      }
      let batch: Claimed[];
      try {
        batch = await claimBatch(db, free, leaseMs);
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'dispatcher: claim failed');
        await pause(pollMs);
        continue;
      }
      if (batch.length === 0) {
        await pause(pollMs);
        continue;
      }
      for (const c of batch) {
        inFlight++;
        handle(c).catch((err: Error) => {
          // The lease runs out and the message is claimed again: nothing is lost.
          logger.error({ id: c.id, err: err.message }, 'dispatcher: handling a message failed');
        }).finally(settle);
      }
    }
  }

  return {
    async start(): Promise<void> {
      if (deps.signal) unsubscribe = await deps.signal.subscribe(wake);
      loopDone = loop();
    },
    /** Stops claiming, then waits for every submit in flight and its write. */
    async stop(): Promise<void> {
      stopping = true;
      wake();
      await loopDone;
      if (inFlight > 0 || unwritten > 0) await new Promise<void>((resolve) => idleWaiters.push(resolve));
      await parkedWork;
      if (unsubscribe) await unsubscribe();
    },
    /** Submits currently in flight (for health and logs). */
    inFlight: () => inFlight,
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
