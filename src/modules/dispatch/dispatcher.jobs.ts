import { DEFAULT_CARRIER, type Carrier, type SubmitResult } from '../../carrier/carrier.ts';
import type { Db } from '../../platform/db/client.ts';
import type { LinksOf } from '../../common/link-view.ts';
import { createBatcher } from '../../platform/jobs/batcher.ts';
import type { QueueSignal } from '../../platform/jobs/signal.ts';
import { createWorkerLoop } from '../../platform/jobs/worker-loop.ts';
import { claimBatch, failAndRefund, failPartlySent, recordSent, renewLeases, scheduleRetry, type Claimed, type OnResent, type SentRecord } from './dispatch.repo.ts';
import { DEFAULT_RETRY, retryDelayMs, shouldGiveUp, type RetryPolicy } from './retry-policy.ts';

/** An SMSC id on the carrier that gave it: ids of two carriers can be equal. */
export interface SmscRef { carrier: string; smscId: string }

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
  signal?: Pick<QueueSignal, 'subscribe'>;
  /** Applies receipts that overtook their submit_sm_resp (parked), once the ids are recorded. */
  receipts: {
    resolveParked(smscIds: string[]): Promise<number>; submitted?(refs: SmscRef[]): void; recorded?(refs: SmscRef[]): void;
    /** In the `sent` write's transaction: the parked receipt of a resent message's first copy (modules/receipts). */
    settleResent?: OnResent;
    /** The links of messages, for the message.dlr body of one that fails at submit. */
    linksOf: LinksOf;
  };
  /** Wakes the webhook worker after a message failed at submit (its message.dlr `rejected` event is recorded). */
  onEvents?: () => void;
  /** Submits in flight at once (SMPP_WINDOW): the carrier's own window is the real limit, this keeps it fed. */
  window: number;
  /** How long a claim holds a message without renewal; a heartbeat renews it while the submit is in flight. */
  leaseMs?: number;
  /** The fallback poll, for a missed notification or a retry coming due. */
  pollMs?: number;
  retry?: RetryPolicy;
  logger: DispatchLogger;
}

// The `sent` write (group commit): under load one statement records many accepted submits.
const WRITE_BATCH = 500;
// One write at a time: submits accepted during a commit make one larger next write (as receipts and /send do), so
// fewer transactions, and fewer parked-receipt look-ups (one per write). Measured against two: pipeline 1.045x,
// faster in all 6 rounds (decision 0041). Safe because a write only touches rows this
// dispatcher has claimed (the claim token), which no other writer waits on for long: a lock wait is a cancel's.
const WRITES_IN_FLIGHT = 1;
// Accepted submits whose `sent` write is still pending: beyond this, claiming waits for the database to catch up.
const MAX_UNWRITTEN = 2 * WRITE_BATCH;

/**
 * The dispatcher role (see README.md), on the worker loop of platform/jobs: claims queued messages with a lease,
 * submits them through the carrier port, and records the outcome only while the claim is still its own.
 * Accepted submits are written by the write-behind batcher, so the database keeps up with the link.
 */
export function createDispatcher(deps: DispatcherDeps) {
  const { db, carrier, logger } = deps;
  const policy = deps.retry ?? DEFAULT_RETRY;
  const window = Math.max(1, deps.window);
  const smscIdsOf = (r: SentRecord) => r.segmentIds ?? [r.smscMessageId];
  const refsOf = (r: { carrier?: string | undefined; segmentIds?: string[] | undefined; smscMessageId: string }): SmscRef[] =>
    (r.segmentIds ?? [r.smscMessageId]).map((smscId) => ({ carrier: r.carrier ?? DEFAULT_CARRIER, smscId }));

  // Parked receipts are looked for after each write, off the write path: the next batch need not wait for it.
  // stop() waits for it (a receipt parked before our commit that we did not look for would stay parked).
  let parkedWork: Promise<void> = Promise.resolve();

  const sent = createBatcher<SentRecord, boolean>({
    maxSize: WRITE_BATCH,
    maxConcurrent: WRITES_IN_FLIGHT,
    // A submit the SMSC accepted must be recorded: if it is not, the lease runs out and the message goes twice.
    retry: (err, attempt) => {
      if (attempt >= 8) {
        logger.error({ err: (err as Error).message }, 'dispatcher: could not record sent messages');
        return null;
      }
      logger.warn({ err: (err as Error).message, attempt }, 'dispatcher: recording sent messages failed, retrying');
      return Math.min(5_000, 250 * 2 ** attempt);
    },
    run: async (batch) => {
      const recorded = await recordSent(db, batch, deps.receipts.settleResent);
      const lost = batch.filter((r) => !recorded.has(r.id));
      if (lost.length > 0) logger.warn({ ids: lost.map((r) => r.id) }, 'dispatcher: claim lost before the submit was recorded');
      const smscIds = batch.filter((r) => recorded.has(r.id)).flatMap(smscIdsOf);
      parkedWork = parkedWork.then(() => deps.receipts.resolveParked(smscIds))
        .then(() => {}, (err: Error) => logger.warn({ err: err.message }, 'dispatcher: applying parked receipts failed'));
      // Committed: receipts waiting for these ids go ahead (given up: handle() lets them go, to park).
      deps.receipts.recorded?.(batch.flatMap(refsOf));
      return batch.map((r) => recorded.has(r.id));
    },
  });

  async function submit(c: Claimed): Promise<SubmitResult> {
    if (c.body === null) return { ok: false, permanent: true, errorCode: 'content_deleted', message: 'the body was removed' };
    try {
      return await carrier.submit({
        id: c.id, from: c.sender, to: c.recipient, text: c.body, receipt: true, accountId: c.accountId, settles: true, ...(c.part ? { part: c.part } : {}),
        ...(c.validUntil ? { validUntil: c.validUntil } : {}),
      });
    } catch (err) {
      return { ok: false, permanent: false, errorCode: 'carrier_error', message: (err as Error).message };
    }
  }

  async function handle(c: Claimed, release: () => void): Promise<void> {
    const result = await submit(c);
    if (result.ok) {
      // The SMSC has answered: the worker's slot is free while the write is pending (the lease is still renewed);
      // the bind's window slot stays taken until the write has committed (settle, decision 0067).
      release();
      const refs = refsOf(result);
      deps.receipts.submitted?.(refs);
      await sent.submit({
        id: c.id, claim: c.claim, smscMessageId: result.smscMessageId, sentAt: new Date(), resent: c.attempts > 1,
        ...(result.segmentIds ? { segmentIds: result.segmentIds } : {}), ...(result.carrier ? { carrier: result.carrier } : {}),
        ...(result.bind !== undefined ? { bind: result.bind } : {}),
      }).catch(() => {
        // Given up (logged once per batch): receipts waiting for these ids go ahead and park; the lease runs out.
        deps.receipts.recorded?.(refs);
      }).finally(() => result.settle?.());
      return;
    }
    if (result.partial) {
      // Some segments were accepted: resending would duplicate them on the handset (README.md).
      const outcome = await failPartlySent(db, deps.receipts.linksOf, c, { partial: result.partial, carrier: result.carrier, bind: result.bind, errorCode: result.errorCode, sentAt: new Date() })
        .finally(() => result.settle?.());
      if (outcome) deps.onEvents?.();
      logger.warn({ id: c.id, errorCode: result.errorCode, accepted: result.partial.accepted.length, segments: result.partial.segments, refunded: outcome?.refunded ?? null }, 'dispatcher: message partly sent; failed, never-accepted parts refunded');
      if (outcome) await deps.receipts.resolveParked(result.partial.accepted.map((a) => a.smscMessageId));
      return;
    }
    if (result.permanent || shouldGiveUp(c.attempts, c.createdAt, new Date(), policy)) {
      const ours = await failAndRefund(db, deps.receipts.linksOf, c, result.errorCode);
      if (ours) deps.onEvents?.();
      logger.info({ id: c.id, errorCode: result.errorCode, permanent: result.permanent, attempts: c.attempts, refunded: ours }, 'dispatcher: message failed at submit');
      return;
    }
    const delay = retryDelayMs(c.attempts, policy);
    await scheduleRetry(db, c, result.errorCode, delay);
    logger.debug({ id: c.id, errorCode: result.errorCode, attempts: c.attempts, delay }, 'dispatcher: submit will be retried');
  }

  const loop = createWorkerLoop<Claimed>({
    name: 'dispatcher',
    concurrency: window,
    // Claim again once a quarter of the window is free: fewer, larger claims under load.
    claimAt: Math.ceil(window / 4),
    maxHeld: window + MAX_UNWRITTEN,
    ready: () => carrier.health().bound,
    ...(deps.signal ? { signal: deps.signal } : {}),
    pollMs: deps.pollMs ?? 1_000,
    ...(deps.leaseMs !== undefined ? { leaseMs: deps.leaseMs } : {}),
    logger,
    claim: (want, token, leaseMs) => claimBatch(db, want, leaseMs, token),
    handle: (c, job) => handle(c, job.release),
    renew: (held, leaseMs) => renewLeases(db, held.map((h) => ({ id: h.item.id, claim: h.token })), leaseMs),
  });

  return {
    start: () => loop.start(),
    /** Stops claiming, then waits for every submit in flight and its write. */
    async stop(): Promise<void> {
      await loop.stop();
      await sent.idle();
      await parkedWork;
    },
    /** Submits currently in flight (for health and logs). */
    inFlight: () => loop.inFlight(),
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
