import { open } from '../../platform/crypto/secret-box.ts';
import type { Db } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { QueueSignal } from '../../platform/jobs/signal.ts';
import type { Logger } from '../../platform/logger.ts';
import { claimDue, completeAttempts, disableFailing, endpointKey, type AttemptOutcome, type ClaimedDelivery } from './delivery.repo.ts';
import { createWebhookSender, isDelivered, type PostResult, type WebhookSender } from './http-sender.ts';
import { nextAttempt } from './schedule.ts';
import { DEFAULT_HEADER_PREFIXES, webhookHeaders } from './headers.ts';
import type { WebhookEvent } from './outbox.ts';

/**
 * The webhook delivery worker. Invariants (README.md):
 * - Rows are claimed with FOR UPDATE SKIP LOCKED and a lease, so any number of workers can share one database;
 *   a crashed worker's rows come back when the lease runs out (a receiver may then see the same
 *   X-Service-Delivery twice, which is what the header is for).
 * - At most `perEndpoint` deliveries of one endpoint (account and event) are in flight in this process, and rows of
 *   a saturated endpoint are skipped when claiming, so a slow or dead endpoint holds at most that many slots and
 *   the rest of the pool keeps serving everyone else.
 * - The URL, switch and secret are read at send time: a disabled endpoint fails the delivery without sending.
 */

export type WebhookWorkerOptions = {
  /** Deliveries in flight at once in this process. */
  concurrency?: number;
  /** Deliveries of one endpoint in flight at once in this process. */
  perEndpoint?: number;
  /** Fallback poll, for work raised in another process without a notification (and scheduled retries). */
  pollMs?: number;
  /** On stop, how long to let in-flight attempts finish before abandoning them to their leases. */
  stopGraceMs?: number;
};

export type WebhookWorkerDeps = {
  db: Db;
  signal: QueueSignal;
  sender: WebhookSender;
  secretKey: Buffer;
  /** WEBHOOK_RETRY_DELAYS in seconds */
  retryDelays: readonly number[];
  /** WEBHOOK_TIMEOUT_MS; the lease outlives it. */
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
  const leaseMs = deps.timeoutMs + 60_000;
  const prefixes = deps.headerPrefixes ?? DEFAULT_HEADER_PREFIXES;
  const inflight = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let total = 0;
  let stopped = false;
  let abandoned = false;
  let claiming = false;
  let again = false;
  let pumpTimer: NodeJS.Timeout | null = null;
  let retryTimer: { at: number; timer: NodeJS.Timeout } | null = null;

  const outcomes: AttemptOutcome[] = [];
  let flushing: Promise<void> | null = null;

  function flush(): Promise<void> {
    if (flushing || outcomes.length === 0) return flushing ?? Promise.resolve();
    flushing = (async () => {
      while (outcomes.length > 0) {
        const batch = outcomes.splice(0, 500);
        try {
          await completeAttempts(deps.db, batch);
        } catch (err) {
          if (abandoned) return;
          // While stopping, give up: the leases run out and the attempts are made again elsewhere.
          if (stopped) {
            deps.logger.error({ err }, 'recording webhook attempts failed while stopping; their leases will expire');
            continue;
          }
          deps.logger.error({ err }, 'recording webhook attempts failed; retrying');
          outcomes.unshift(...batch);
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        const failed = batch.filter((o) => o.status === 'failed').map((o) => o.endpoint);
        if (failed.length > 0 && deps.onFailed) {
          await deps.onFailed(failed).catch((err) => deps.logger.error({ err }, 'checking failing webhook endpoints failed'));
        }
        const earliest = batch.reduce<number | null>((min, o) => (o.nextAt && (min === null || o.nextAt.getTime() < min) ? o.nextAt.getTime() : min), null);
        if (earliest !== null) wakeAt(earliest);
      }
    })().finally(() => {
      flushing = null;
      if (outcomes.length > 0 && !abandoned) void flush();
    });
    return flushing;
  }

  /** A retry was scheduled here: claim again when it falls due rather than waiting for the poll. */
  function wakeAt(at: number) {
    if (stopped || (retryTimer && retryTimer.at <= at)) return;
    if (retryTimer) clearTimeout(retryTimer.timer);
    const timer = setTimeout(() => {
      retryTimer = null;
      pump();
    }, Math.max(at - Date.now(), 0) + 5);
    timer.unref();
    retryTimer = { at, timer };
  }

  function room(): Record<string, number> {
    const r: Record<string, number> = {};
    for (const [key, n] of inflight) r[key] = Math.max(perEndpoint - n, 0);
    return r;
  }

  /** Claims as much as the pool has room for; coalesces concurrent calls into one loop. */
  function pump(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    void (async () => {
      do {
        again = false;
        while (!stopped && total < concurrency) {
          const want = concurrency - total;
          const claimed = await claimDue(deps.db, { want, scan: Math.max(want * 4, 100), cap: perEndpoint, room: room(), leaseMs });
          for (const row of claimed) start(row);
          if (claimed.length < want) break;
        }
      } while (again && !stopped && total < concurrency);
    })().catch((err) => {
      if (!stopped) deps.logger.error({ err }, 'claiming webhook deliveries failed');
    }).finally(() => {
      claiming = false;
    });
  }

  /** Completions ask for more work, coalesced so a burst of completions makes one claim, not one each. */
  function pumpSoon(): void {
    if (pumpTimer || stopped) return;
    pumpTimer = setTimeout(() => {
      pumpTimer = null;
      pump();
    }, 2);
  }

  function start(row: ClaimedDelivery): void {
    const key = endpointKey(row.accountId, row.event);
    inflight.set(key, (inflight.get(key) ?? 0) + 1);
    total += 1;
    const p: Promise<void> = attempt(row)
      .then((outcome) => {
        if (abandoned) return;
        outcomes.push(outcome);
        void flush();
      })
      .catch((err) => deps.logger.error({ err, delivery: row.id }, 'webhook attempt crashed'))
      .finally(() => {
        const left = (inflight.get(key) ?? 1) - 1;
        if (left <= 0) inflight.delete(key);
        else inflight.set(key, left);
        total -= 1;
        running.delete(p);
        pumpSoon();
      });
    running.add(p);
  }

  async function attempt(row: ClaimedDelivery): Promise<AttemptOutcome> {
    const attemptedAt = new Date();
    const finish = (result: PostResult, retry = true): AttemptOutcome => {
      const delivered = isDelivered(result);
      const nextAt = delivered || !retry ? null : nextAttempt({ attemptsMade: row.attempts + 1, delays: deps.retryDelays, now: new Date() });
      return {
        id: row.id, lease: row.lease, attemptId: uuidv7(), attemptedAt, statusCode: result.statusCode,
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
    try {
      secrets = [row.secretSealed, row.previousSecretSealed]
        .filter((s): s is Uint8Array => s !== null)
        .map((s) => open(deps.secretKey, Buffer.from(s)));
    } catch {
      // Never send unsigned when signing is on: the receiver would reject it anyway, or worse, accept it.
      return finish({ statusCode: null, error: 'signing secret cannot be decrypted (was TASMAN_SECRET_KEY changed?); not sent', durationMs: 0 });
    }
    // The previous secret is only ever present beside a current one (rotation moves current to previous).
    const headers = webhookHeaders({
      prefixes, event: row.event, id: row.id, body: row.body, timestampSec: Math.floor(Date.now() / 1000),
      secrets: row.secretSealed === null ? [] : secrets,
    });
    return finish(await deps.sender.post(row.url, row.body, headers));
  }

  let unsubscribe: (() => Promise<void>) | null = null;
  let poll: NodeJS.Timeout | null = null;

  return {
    async start(): Promise<void> {
      unsubscribe = await deps.signal.subscribe(pump);
      poll = setInterval(pump, deps.pollMs ?? 500);
      poll.unref();
      pump();
    },
    /** Stops claiming, lets attempts in flight finish (up to the grace period), records them, and returns. */
    async stop(): Promise<void> {
      stopped = true;
      if (poll) clearInterval(poll);
      if (pumpTimer) clearTimeout(pumpTimer);
      if (retryTimer) clearTimeout(retryTimer.timer);
      await unsubscribe?.();
      // A claim in progress finishes and its rows are attempted: they are leased to us either way.
      while (claiming) await new Promise((r) => setTimeout(r, 5));
      let grace: NodeJS.Timeout | undefined;
      const settled = await Promise.race([
        Promise.all(running).then(() => true),
        new Promise<boolean>((r) => { grace = setTimeout(() => r(false), deps.stopGraceMs ?? 3000); }),
      ]);
      clearTimeout(grace);
      if (!settled) {
        // Unfinished attempts are left to their leases: another worker retries them, same delivery id.
        abandoned = true;
        outcomes.length = 0;
        await deps.sender.destroy();
        await Promise.all(running);
      }
      while (flushing || outcomes.length > 0) await flush();
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
  return async () => {
    await worker.stop();
    await sender.close();
  };
}
