// The workers role of the composition root (compose.ts): the carrier links, the dispatcher feeding them, and the
// periodic jobs. compose.ts imports this file only in a process that runs the workers, so an API process of a
// cluster never loads the SMPP stack, the dispatcher or the webhook worker's HTTP client
// (docs/decisions/0019-composition-root-and-roles.md).
import type { Config } from './config.ts';
import type { Logger } from './platform/logger.ts';
import type { Services } from './compose.ts';
import { startPeriodic } from './platform/jobs/periodic.ts';
import { createSmppServer, type CarrierSet, type SmppServer } from './carrier/index.ts';
import { createSmppGateway } from './modules/smpp-credentials/smpp-gateway.service.ts';
import { SMPP_REVOKED_CHANNEL } from './modules/smpp-credentials/smpp-credentials.repo.ts';
import { purgeSmppQueue, queueEndedReceipts, SMPP_QUEUED_CHANNEL } from './modules/smpp-credentials/smpp-queue.repo.ts';
import { createSharedBindLimits, RENEW_BINDS_MS } from './modules/smpp-credentials/smpp-limits.ts';
import { withCustomerValidity } from './modules/smpp-credentials/customer-validity.ts';
import { expireByValidity } from './modules/smpp-credentials/smpp-validity.repo.ts';
import { UnstorableDeliveryError, type Carrier } from './carrier/carrier.ts';
import { isDataException } from './platform/db/sql-state.ts';
import { startReceiptQueries } from './modules/carriers/query.jobs.ts';
import { CARRIERS_RELOAD_CHANNEL } from './modules/carriers/carriers.channel.ts';
import { createDispatcher } from './modules/dispatch/dispatcher.jobs.ts';
import { startWebhookWorker } from './modules/webhooks/webhooks.jobs.ts';
import { startRetention } from './modules/retention/retention.jobs.ts';
import { startScheduler } from './modules/scheduling/schedule.jobs.ts';
import { startLowBalanceNotices } from './modules/credits/low-balance.jobs.ts';
import type { Metrics } from './platform/metrics.ts';

type Stop = () => Promise<void>;

const PARKED_SWEEP_MS = 10 * 60_000;
const PARKED_RESOLVE_MS = 30_000;
const IDEMPOTENCY_SWEEP_MS = 60_000;
// Messages past their validity period without a receipt are ended this often (receipts/expiry.ts expireOverdue).
const EXPIRY_SWEEP_MS = 60_000;
const NUMBER_RENEWAL_MS = 10 * 60_000;
// Deliveries older than SMPP_SERVER_QUEUE_HOURS are dropped this often.
const QUEUE_PURGE_MS = 10 * 60_000;
const ENDED_RECEIPTS_MS = 10_000;
// A receiving bind's queue is looked at this often without a wake (a NOTIFY missed, a claim another instance let go).
const DELIVERY_POLL_MS = 5_000;
// A sent message past its customer's validity (SMPP server) without a receipt waits this long for the carrier's
// EXPIRED receipt before it is ended, as receipts/expiry.ts gives MESSAGE_VALIDITY_HOURS' expiry.
const VALIDITY_GRACE_MS = 60 * 60_000;
// The credit ledger check reads the whole ledger: every quarter of an hour, the first a minute after start-up.
const LEDGER_CHECK_MS = 15 * 60_000;

/** Runs `task` every `ms` on the worker loop (platform/jobs/periodic.ts); the returned stop waits for a run. */
const every = (everyMs: number, run: () => Promise<unknown>, logger: Logger, name: string): Stop => startPeriodic({ name, everyMs, run, logger });

/** A delivery the database can never store (a NUL in its text…) is refused for good, not resent every second. */
const refuseUnstorable = <T, R>(handle: (item: T) => Promise<R>) => async (item: T): Promise<R> => {
  try {
    return await handle(item);
  } catch (err) {
    if (isDataException(err)) throw new UnstorableDeliveryError((err as Error).message, { cause: err });
    throw err;
  }
};

/**
 * The carrier role: the SMPP link (to SMPP_HOST, or to the built-in SMSC), the dispatcher feeding it, and the
 * receipt and inbound services behind it. The returned stop drains in order: the dispatcher finishes its
 * submits and their writes, then the link unbinds.
 */
async function startCarrierRole(carriers: CarrierSet, services: Services, logger: Logger): Promise<{ stop: Stop }> {
  const log = logger.child({ component: 'carrier' });
  const counting = counted(carriers, services.metrics);
  // A message from the SMPP server may carry its customer's own validity period to the carrier (the claim reads it).
  const link = withCustomerValidity(counting);
  // The receipt and inbox services wake the webhook worker themselves after committing an event.
  await link.start({
    onReceipt: refuseUnstorable((receipt) => {
      services.metrics.receipts.inc({ status: receipt.state });
      return services.receipts.onReceipt(receipt);
    }),
    onInbound: refuseUnstorable(async (sms) => {
      const row = await services.inbox.receive(sms);
      if (row && row.accountId === null) {
        log.warn({ id: row.id, from: row.from, to: row.to }, 'inbound message for a number no account holds; stored unrouted');
      }
    }),
  });
  const dispatcher = createDispatcher({
    db: services.db, carrier: link, signal: services.signals.queued, receipts: services.receipts,
    onEvents: () => services.signals.webhooks.raise(), window: carriers.capacity(), logger: log.child({ role: 'dispatcher' }),
  });
  await dispatcher.start();
  // The backstop of the one early-receipt path (modules/receipts/README.md): parked receipts retried.
  const resolve = every(PARKED_RESOLVE_MS, () => services.receipts.sweepParked(), log, 'parked receipt sweep');
  const expiry = every(EXPIRY_SWEEP_MS, () => services.receipts.expireOverdue(), log, 'expiry of messages without a receipt');
  // Before expiry ends them: query_sm for messages without a receipt, on carriers that answer it.
  const queries = startReceiptQueries({ db: services.db, carriers, logger: log });
  const sweep = every(PARKED_SWEEP_MS, () => Promise.all([
    services.receipts.purgeOrphans(services.config.parkedReceiptMaxAgeHours * 3_600_000), services.inbox.purgeFragments(),
  ]), log, 'parked receipt and inbound fragment purge');
  return {
    async stop() {
      await sweep();
      await resolve();
      await expiry();
      await queries();
      await dispatcher.stop();
      await link.stop();
    },
  };
}

/** The link, counting the submits the SMSC accepted. */
function counted(link: Carrier, metrics: Metrics): Carrier {
  return {
    start: (handlers) => link.start(handlers),
    async submit(request) {
      const result = await link.submit(request);
      if (result.ok) metrics.submitted.inc();
      return result;
    },
    health: () => link.health(),
    stop: () => link.stop(),
  };
}

/**
 * The SMPP server for customers' own SMPP clients (SMPP_SERVER_PORT): every workers process listens, so binds spread
 * over the instances; a revocation heard on the database closes the credential's binds here at once.
 */
async function startSmppServerRole(settings: NonNullable<Config['smppServer']>, services: Services, logger: Logger, now?: () => Date): Promise<{ server: SmppServer; stop: Stop }> {
  const clock = now ? { now } : {};
  const gateway = createSmppGateway({
    db: services.db, messages: services.messages, addressThrottle: services.addressThrottle, listen: services.database.listen, queueHours: settings.queueHours, ...clock,
  });
  const limits = createSharedBindLimits({ db: services.db, ...clock });
  const server = createSmppServer({
    port: settings.port, host: settings.host, window: settings.window, defaultAlphabet: settings.defaultAlphabet, gateway, limits, ...clock,
    onPdu: (direction) => services.metrics.smppServerPdus.inc({ direction }),
    ...(settings.tls ? { tls: settings.tls } : {}), logger: logger.child({ component: 'smpp-server' }),
  });
  const unlisten = await services.database.listen(SMPP_REVOKED_CHANNEL, (credentialId) => { server.closeCredential(credentialId); });
  // A delivery queued anywhere wakes the instance holding a receiving bind of its credential.
  const unlistenQueued = await services.database.listen(SMPP_QUEUED_CHANNEL, (credentialId) => { server.wake(credentialId); });
  const purge = every(QUEUE_PURGE_MS, () => purgeSmppQueue(services.db, settings.queueHours), logger, 'SMPP delivery queue purge');
  // Messages past their customer's validity end expired; then the receipts of messages that ended without a
  // receipt transaction (refused at submit, expired, cancelled) are queued.
  const ended = every(ENDED_RECEIPTS_MS, async () => {
    const expired = await expireByValidity(services.db, services.receipts.linksOf, new Date(), VALIDITY_GRACE_MS);
    if (expired.events > 0) services.signals.webhooks.raise();
    await queueEndedReceipts(services.db);
  }, logger, 'SMPP validity expiry and receipts of messages ended otherwise');
  const renew = every(RENEW_BINDS_MS, () => limits.renew(), logger, 'SMPP bind renewal');
  const poll = every(DELIVERY_POLL_MS, async () => { server.wakeReceiving(); }, logger, 'SMPP delivery queue poll');
  await server.start();
  return {
    server,
    stop: async () => {
      await purge();
      await ended();
      await poll();
      await unlisten();
      await unlistenQueued();
      await server.stop();
      // Renewed until the binds are closed: a bind still open never lapses for another instance.
      await renew();
    },
  };
}

/**
 * A carrier reload made through any instance is announced on the database: this process re-reads its own
 * TASMAN_CARRIERS and rebinds what changed. The outcome is logged here (the operator's answer came from where
 * the reload was asked).
 */
function listenForCarrierReloads(services: Services, log: Logger): Promise<() => Promise<void>> {
  return services.database.listen(CARRIERS_RELOAD_CHANNEL, (from) => {
    services.carrierAdmin.onAnnounced(from).then(
      (done) => { if (done) log.info({ ...done }, 'carriers reloaded (announced by another instance)'); },
      (err: unknown) => log.error(`carriers not reloaded, those in force stay: ${(err as Error).message}`),
    );
  });
}

/** The background roles; each claims its rows with FOR UPDATE SKIP LOCKED and a lease, so processes may share them. */
export async function startWorkers(
  config: Config, services: Services, carriers: CarrierSet, logger: Logger,
  /** The sending clock (compose's `now`): the SMPP server reads its time fields and counts its tps by it. */
  now?: () => Date,
): Promise<{ stops: Stop[]; smppServer: SmppServer | null }> {
  const carrier = await startCarrierRole(carriers, services, logger);
  const smpp = config.smppServer ? await startSmppServerRole(config.smppServer, services, logger, now) : null;
  const unlistenReloads = await listenForCarrierReloads(services, logger.child({ component: 'carrier' }));
  const stops = [
    every(IDEMPOTENCY_SWEEP_MS, () => services.idempotency.purgeExpired(), logger, 'idempotency purge'),
    // Dedicated number rental (30-day renewals, 7-day grace); SKIP LOCKED claims, so every worker may run it.
    every(NUMBER_RENEWAL_MS, () => services.numbers.renewDue(), logger, 'number renewal'),
    startPeriodic({
      name: 'credit ledger check', everyMs: LEDGER_CHECK_MS, firstAfterMs: 60_000, logger,
      run: async () => { services.metrics.ledgerMismatch.set(await services.credits.mismatchedAccounts()); },
    }),
    startRetention({ db: services.db, retentionDays: config.retentionDays, auditRetentionDays: config.auditRetentionDays, logger }),
    // Scheduled messages fall due into the dispatcher's queue (exactly once, whichever process releases them).
    startScheduler({ db: services.db, onReleased: () => services.signals.queued.raise(), logger }),
    // A debit below an account's low_balance_threshold: the owner's email (the trigger recorded it with the debit).
    startLowBalanceNotices({ db: services.db, mail: services.mail, logger }),
    async () => { await unlistenReloads(); await carrier.stop(); },
    ...(smpp ? [smpp.stop] : []),
    await startWebhookWorker({
      db: services.db, signal: services.signals.webhooks, secretKey: services.secretKey, webhook: config.webhook, logger,
      firstAttempts: services.firstAttempts,
      options: { onAttempt: (result) => services.metrics.webhookDeliveries.inc({ result }) },
    }),
  ];
  return { stops, smppServer: smpp?.server ?? null };
}
