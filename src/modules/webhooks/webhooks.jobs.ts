import { createOpener } from '../../platform/crypto/secret-box.ts';
import { joinCredentials } from './url-credentials.ts';
import type { Db } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { createBatcher } from '../../platform/jobs/batcher.ts';
import type { QueueSignal } from '../../platform/jobs/signal.ts';
import { createWorkerLoop, DEFAULT_LEASE_MS } from '../../platform/jobs/worker-loop.ts';
import type { Logger } from '../../platform/logger.ts';
import { claimDue, completeAttempts, disableFailing, endpointKey, renewLeases, type AttemptOutcome, type ClaimedDelivery } from './delivery.repo.ts';
import { createWebhookSender, isDelivered, type PostResult, type WebhookSender } from './http-sender.ts';
import { nextAttempt } from './schedule.ts';
import { DEFAULT_HEADER_PREFIXES, webhookHeaders } from './headers.ts';
import type { WebhookEvent } from './outbox.ts';
import { createEndpointCaps } from './endpoint-cap.ts';
import { claimOnAnswer, scanFor } from './claim-scan.ts';
import { createFirstAttempts, type FirstAttemptPort, type FirstAttemptSlot } from './first-attempt.ts';

/**
 * The webhook delivery worker. Invariants (README.md):
 * - Rows are claimed on the worker loop of platform/jobs (FOR UPDATE SKIP LOCKED, a lease renewed by a
 *   heartbeat, a fencing token), so any number of workers can share one database;
 *   a crashed worker's rows come back when the lease runs out (a receiver may then see the same
 *   X-Service-Delivery twice, which is what the header is for).
 * - At most `perEndpoint` deliveries of one endpoint (account and event) are in flight in this process (up to
 *   `perEndpointMax` while it answers fast: endpoint-cap.ts), and rows of a saturated endpoint are skipped when
 *   claiming, so a slow or dead endpoint holds at most `perEndpoint` slots and the rest of the pool keeps serving
 *   everyone else.
 * - The URL, switch and secret are read at send time: a disabled endpoint fails the delivery without sending.
 */

export type WebhookWorkerOptions = {
  /** Deliveries in flight at once in this process. */
  concurrency?: number;
  /** Deliveries of one endpoint in flight at once in this process, to begin with (endpoint-cap.ts). */
  perEndpoint?: number;
  /** What an endpoint that keeps answering fast may grow to (default 4 × perEndpoint, at most the pool). */
  perEndpointMax?: number;
  /** Fallback poll, for work raised in another process without a notification (and scheduled retries). */
  pollMs?: number;
  /** On stop, how long to let in-flight attempts finish before abandoning them to their leases. */
  stopGraceMs?: number;
  /** How long a claim holds a delivery without renewal (a heartbeat renews it while the attempt runs). */
  leaseMs?: number;
  /** Told each attempt's outcome (metrics). */
  onAttempt?: (result: 'delivered' | 'retry' | 'failed') => void;
};

export type WebhookWorkerDeps = {
  db: Db;
  signal: QueueSignal;
  sender: WebhookSender;
  secretKey: Buffer;
  /** WEBHOOK_RETRY_DELAYS in seconds */
  retryDelays: readonly number[];
  /** WEBHOOK_TIMEOUT_MS. */
  timeoutMs: number;
  /** WEBHOOK_HEADER_PREFIXES: the document's three headers are sent once under each (X-Service, X-Texto). */
  headerPrefixes?: readonly string[];
  /** Called with the endpoints whose deliveries just failed for good (the auto-disable check). */
  onFailed?: (endpoints: Array<{ accountId: string; event: WebhookEvent }>) => Promise<void>;
  logger: Pick<Logger, 'warn' | 'error'>;
} & WebhookWorkerOptions;

export function createWebhookWorker(deps: WebhookWorkerDeps) {
  const concurrency = deps.concurrency ?? 256;
  const perEndpoint = deps.perEndpoint ?? 16;
  // An endpoint's secrets are opened for every delivery: the worker remembers its openings (secret-box.ts).
  const openSecret = createOpener(deps.secretKey);
  const caps = createEndpointCaps({
    base: perEndpoint,
    max: Math.max(perEndpoint, Math.min(deps.perEndpointMax ?? perEndpoint * 4, concurrency)),
    // Fast means well inside the timeout: a receiver answering in a quarter of it is not the bottleneck.
    fastMs: Math.min(250, deps.timeoutMs / 4),
  });
  const prefixes = deps.headerPrefixes ?? DEFAULT_HEADER_PREFIXES;
  const inflight = new Map<string, number>();
  // Endpoints the last claim left at their cap (their rows may have been skipped), and whether it took all it
  // asked for: what a freed slot needs to wake a claim (claim-scan.ts claimOnAnswer).
  const backlogged = new Set<string>();
  let claimFilled = true;
  let stopping = false;
  let abandoned = false;

  // Outcomes are recorded by the write-behind batcher: one statement for many attempts under load. One statement
  // at a time: the slots are freed when the endpoint answers (below), so recording is off the delivery's path and
  // waiting outcomes only make the next statement larger.
  const completions = createBatcher<AttemptOutcome, true>({
    maxSize: 500,
    maxConcurrent: 1,
    retry: (err) => {
      // While stopping, give up: the leases run out and the attempts are made again elsewhere.
      if (stopping) {
        deps.logger.error({ err }, 'recording webhook attempts failed while stopping; their leases will expire');
        return null;
      }
      deps.logger.error({ err }, 'recording webhook attempts failed; retrying');
      return 1000;
    },
    run: async (batch) => {
      await completeAttempts(deps.db, batch);
      const failed = batch.filter((o) => o.status === 'failed').map((o) => o.endpoint);
      if (failed.length > 0 && deps.onFailed) {
        await deps.onFailed(failed).catch((err) => deps.logger.error({ err }, 'checking failing webhook endpoints failed'));
      }
      // A retry was scheduled here: claim again when it falls due rather than waiting for the poll.
      const earliest = batch.reduce<number | null>((min, o) => (o.nextAt && (min === null || o.nextAt.getTime() < min) ? o.nextAt.getTime() : min), null);
      if (earliest !== null) loop.wakeAt(earliest);
      return batch.map(() => true as const);
    },
  });

  // Slots taken for first attempts whose transaction has not committed yet (first-attempt.ts): claims leave them.
  let reserved = 0;
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const release = (key: string) => {
    const open = inflight.get(key) ?? 1;
    if (open <= 1) inflight.delete(key);
    else inflight.set(key, open - 1);
  };
  const firstAttemptPort: FirstAttemptPort = {
    leaseMs,
    take(accountId, event) {
      const key = endpointKey(accountId, event);
      const open = inflight.get(key) ?? 0;
      if (stopping || loop.free() - reserved <= 0 || open >= caps.cap(key)) return false;
      inflight.set(key, open + 1);
      reserved += 1;
      return true;
    },
    give(accountId, event) {
      release(endpointKey(accountId, event));
      reserved -= 1;
    },
    start(rows, token) {
      reserved -= rows.length;
      if (!loop.adopt(rows, token)) for (const row of rows) release(endpointKey(row.accountId, row.event));
    },
  };

  function room(): Record<string, number> {
    const r: Record<string, number> = {};
    for (const [key, cap] of caps.grown()) r[key] = cap;
    for (const [key, n] of inflight) r[key] = Math.max(caps.cap(key) - n, 0);
    return r;
  }

  const loop = createWorkerLoop<ClaimedDelivery>({
    name: 'webhooks',
    concurrency,
    pollMs: deps.pollMs ?? 500,
    leaseMs,
    signal: deps.signal,
    logger: deps.logger,
    claim: async (asked, token, leaseMs) => {
      const want = asked - reserved;
      if (want <= 0) return [];
      const r = room();
      const claimed = await claimDue(deps.db, { want, scan: scanFor(want, r, perEndpoint), cap: perEndpoint, room: r, leaseMs, token });
      // Counted at claim time, so the next claim already sees these endpoints' room taken.
      for (const row of claimed) {
        const key = endpointKey(row.accountId, row.event);
        inflight.set(key, (inflight.get(key) ?? 0) + 1);
      }
      claimFilled = claimed.length >= want;
      backlogged.clear();
      for (const [key, n] of inflight) if (n >= caps.cap(key)) backlogged.add(key);
      return claimed;
    },
    // Outcomes wait for recording beside at most one pool's worth of open deliveries.
    maxHeld: concurrency * 2,
    // Slots free one answer at a time: claim once a sixteenth of the pool is free, not after every answer (one
    // claim statement per few deliveries otherwise). An idle pool claims at once, so latency is unchanged.
    claimAt: Math.max(1, Math.floor(concurrency / 16)),
    wakeOnRelease: (row) => {
      const key = endpointKey(row.accountId, row.event);
      return claimOnAnswer({ lastClaimFilled: claimFilled, atCapAfterClaim: backlogged.has(key), cap: caps.cap(key), open: inflight.get(key) ?? 0 });
    },
    handle: async (row, job) => {
      const key = endpointKey(row.accountId, row.event);
      let outcome: AttemptOutcome | null = null;
      try {
        outcome = await attempt(row);
      } finally {
        // The endpoint has answered: its slot and the pool's are free now (the cap bounds requests open at the
        // endpoint), while the outcome is recorded behind. The row stays leased to this claim until then.
        const open = inflight.get(key) ?? 1;
        release(key);
        if (outcome) caps.answered(key, { delivered: outcome.status === 'delivered', durationMs: outcome.durationMs, openBefore: open });
        job.release();
      }
      if (!abandoned) await completions.submit(outcome);
    },
    renew: (held, leaseMs) => renewLeases(deps.db, held.map((h) => ({ id: h.item.id, claim: h.token })), leaseMs),
  });

  async function attempt(row: ClaimedDelivery): Promise<AttemptOutcome> {
    const attemptedAt = new Date();
    const finish = (result: PostResult, retry = true): AttemptOutcome => {
      const delivered = isDelivered(result);
      const nextAt = delivered || !retry ? null : nextAttempt({ attemptsMade: row.attempts + 1, delays: deps.retryDelays, now: new Date() });
      deps.onAttempt?.(delivered ? 'delivered' : nextAt ? 'retry' : 'failed');
      return {
        id: row.id, claim: row.claim, attemptId: uuidv7(), attemptedAt, statusCode: result.statusCode,
        endpoint: { accountId: row.accountId, event: row.event },
        error: result.error, durationMs: result.durationMs, nextAt,
        status: delivered ? 'delivered' : nextAt ? 'pending' : 'failed',
      };
    };
    // Disabled (or removed) when its turn came: give up without sending. A client that re-enables it can
    // redeliver from the log; retrying into a switched-off endpoint would surprise more than it helps.
    if (row.url === null || !row.enabled) {
      return finish({ statusCode: null, error: 'endpoint disabled; not sent', durationMs: 0 }, false);
    }
    let secrets: string[] = [];
    let target = row.url;
    try {
      secrets = [row.secretSealed, row.previousSecretSealed]
        .filter((s): s is Uint8Array => s !== null)
        .map((s) => openSecret(Buffer.from(s)));
      if (row.urlCredentialsSealed !== null) target = joinCredentials(row.url, openSecret(Buffer.from(row.urlCredentialsSealed)));
    } catch {
      // Never send unsigned when signing is on: the receiver would reject it anyway, or worse, accept it.
      return finish({ statusCode: null, error: 'signing secret cannot be decrypted (was TASMAN_SECRET_KEY changed?); not sent', durationMs: 0 });
    }
    // The previous secret is only ever present beside a current one (rotation moves current to previous).
    const headers = webhookHeaders({
      prefixes, event: row.event, id: row.id, body: row.body, timestampSec: Math.floor(Date.now() / 1000),
      secrets: row.secretSealed === null ? [] : secrets,
    });
    return finish(await deps.sender.post(target, row.body, headers));
  }

  return {
    start: () => loop.start(),
    /** A first attempt without a claim, for a transaction recording events here (first-attempt.ts). */
    firstAttempts: () => createFirstAttempts(firstAttemptPort),
    /** Stops claiming, lets attempts in flight finish (up to the grace period), records them, and returns. */
    async stop(): Promise<void> {
      stopping = true;
      await loop.stop({
        graceMs: deps.stopGraceMs ?? 3000,
        // Unfinished attempts are left to their leases: another worker retries them, same delivery id.
        onGraceExpired: async () => {
          abandoned = true;
          await deps.sender.destroy();
        },
      });
      await completions.idle();
    },
  };
}

/**
 * Auto-disable and tell: an endpoint whose last 50 finished deliveries all failed, over at least 24 hours, is
 * switched off with this reason (GET /webhooks shows it); PUT turns it on again. docs/webhooks.md states the rule.
 */
export const AUTO_DISABLE = {
  window: 50,
  minSpanMs: 24 * 60 * 60 * 1000,
  reason: 'Disabled automatically: the last 50 deliveries, over at least 24 hours, all failed. Fix the receiver, then PUT the endpoint to enable it again.',
} as const;

/** The webhook role (started by compose.ts): one sender and one worker per process. */
export async function startWebhookWorker(deps: {
  db: Db;
  signal: QueueSignal;
  secretKey: Buffer;
  webhook: { retryDelays: number[]; timeoutMs: number; allowPrivate: boolean; headerPrefixes?: string[] };
  logger: Pick<Logger, 'warn' | 'error'>;
  options?: WebhookWorkerOptions;
  /** Set to this worker's first attempts while it runs, for the receipts recorded in this process. */
  firstAttempts?: FirstAttemptSlot;
}): Promise<() => Promise<void>> {
  const perEndpoint = deps.options?.perEndpoint ?? 16;
  const concurrency = deps.options?.concurrency ?? 256;
  // The worker bounds each endpoint (perEndpoint); connections are pooled per origin, which several accounts'
  // endpoints may share (one SaaS host). A per-origin cap of perEndpoint let one slow endpoint hold every
  // connection to its host and stall the other accounts there, so the cap is the whole pool.
  const sender = createWebhookSender({
    timeoutMs: deps.webhook.timeoutMs, allowPrivate: deps.webhook.allowPrivate, connectionsPerOrigin: concurrency,
  });
  const worker = createWebhookWorker({
    db: deps.db, signal: deps.signal, sender, secretKey: deps.secretKey, retryDelays: deps.webhook.retryDelays,
    timeoutMs: deps.webhook.timeoutMs, logger: deps.logger, ...deps.options, perEndpoint, concurrency,
    headerPrefixes: deps.webhook.headerPrefixes,
    onFailed: async (endpoints) => {
      for (const e of await disableFailing(deps.db, endpoints, AUTO_DISABLE)) {
        deps.logger.warn({ account: e.accountId, kind: e.kind }, 'webhook endpoint disabled: its last 50 deliveries over 24 hours all failed');
      }
    },
  });
  await worker.start();
  if (deps.firstAttempts) deps.firstAttempts.current = worker.firstAttempts;
  return async () => {
    if (deps.firstAttempts) deps.firstAttempts.current = null;
    await worker.stop();
    await sender.close();
  };
}
