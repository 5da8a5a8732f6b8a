// The composition root: the one place that builds the process from its configuration. `tasman start`
// (main.ts), the test app (test/support/app.ts) and the benchmarks all call compose(), so what tests exercise is
// what production runs. Everything is passed explicitly: no module reaches for a global or a mutable slot.
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { rereadCarriers, type Config } from './config.ts';
import { openDatabase, type Database, type Db } from './platform/db/client.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { loadOrCreateAdminToken } from './platform/admin-token.ts';
import { createIdempotency } from './platform/http/idempotency.ts';
import type { Authenticate } from './platform/http/auth.ts';
import { createQueueSignal } from './platform/jobs/signal.ts';
import { loadOrCreateKey } from './platform/crypto/secret-box.ts';
import type { CarrierSet, SimulatorHandle, SmppServer } from './carrier/index.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { createOperatorService } from './modules/operators/operators.service.ts';
import { createOperatorSignIn } from './modules/operators/operator-sign-in.service.ts';
import { createCampaignService } from './modules/campaigns/campaigns.service.ts';
import { createOptoutService } from './modules/optouts/optouts.service.ts';
import { createCreditService } from './modules/credits/credits.service.ts';
import { createMessageService } from './modules/messages/messages.service.ts';
import { createLinkService } from './modules/links/links.service.ts';
import { createAuthenticator } from './modules/keys/authenticator.ts';
import { createWebhookService } from './modules/webhooks/webhooks.service.ts';
import type { FirstAttemptSlot } from './modules/webhooks/first-attempt.ts';
import { createOptoutLinkService } from './modules/optout-link/optout-link.service.ts';
import { createReportService } from './modules/reports/reports.service.ts';
import { createAccountService } from './modules/accounts/accounts.service.ts';
import { createAccountKeyService } from './modules/accounts/account-keys.service.ts';
import { createKeyService } from './modules/keys/keys.service.ts';
import { createUserService } from './modules/users/users.service.ts';
import { insertUser } from './modules/users/users.repo.ts';
import { createNumberService } from './modules/numbers/numbers.service.ts';
import { createReceiptService } from './modules/receipts/receipts.service.ts';
import { createStatusService } from './modules/status/status.service.ts';
import type { CarrierAdminService } from './modules/carriers/carriers.service.ts';
import { receiptsWaiting } from './modules/carriers/carriers.repo.ts';
import { CARRIERS_RELOAD_CHANNEL } from './modules/carriers/carriers.channel.ts';
import { createInboxService } from './modules/inbox/inbox.service.ts';
import { createConversationService } from './modules/inbox/conversations.service.ts';
import { createSessionService } from './modules/sessions/sessions.service.ts';
import { createSignInThrottle } from './modules/sessions/sign-in-throttle.ts';
import { createPasswordResetService } from './modules/sessions/password-reset.service.ts';
import { createMailer } from './platform/mail/mailer.ts';
import { createFailureCounter } from './platform/http/failure-counter.ts';
import { createAddressThrottle } from './platform/http/address-throttle.ts';
import { createTwoFactorService } from './modules/sessions/two-factor.service.ts';
import { createReplyService } from './modules/messages/reply.service.ts';
import { createSenderService } from './modules/senders/senders.service.ts';
import { createSenderRequestService } from './modules/senders/sender-requests.service.ts';
import { createSettingsService } from './modules/settings/settings.service.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { createSmppCredentialService } from './modules/smpp-credentials/smpp-credentials.service.ts';
import { queueInbound, queueReceipts, smppServerGauges } from './modules/smpp-credentials/smpp-queue.repo.ts';
import { createContactService } from './modules/contacts/contacts.service.ts';
import { createListService } from './modules/contacts/lists.service.ts';
import { listSendRecipients } from './modules/contacts/lists.repo.ts';
import { createTemplateService } from './modules/templates/templates.service.ts';
import type { CarrierStatus } from './modules/health/health.service.ts';
import { ping, queueSizes } from './modules/health/health.repo.ts';
import { createMetrics, type Metrics } from './platform/metrics.ts';
import type { WorkersPeer } from './platform/cluster/peer.ts';
import type { StatusDeps } from './modules/status/status.service.ts';
import { portInUse, StartupError } from './platform/startup-error.ts';
// Loaded only when TLS_CERT_FILE is set (startApi).
import type * as TlsModule from './platform/tls.ts';

export type { SimulatorHandle } from './carrier/index.ts';

/** What one process runs. `npm start` runs both; production can split API and workers (TASMAN_ROLES). */
export interface Roles {
  api: boolean;
  workers: boolean;
}

type Stop = () => Promise<void>;

/** Every service, built once per process from the database and configuration; routes and workers share them. */
function createServices(
  config: Config, database: Database, metrics: Metrics, logger: Logger, carriers: CarrierSet | null,
  /** The operator's carrier view and route reload: this process's, or relayed to the workers process of the cluster. */
  carrierAdmin: CarrierAdminService, now?: () => Date,
  /** What /status reads of the carriers when another process of the cluster holds them. */
  remoteCarriers?: StatusDeps['carriers'],
  /** The API's Redis (REDIS_URL), which also holds the failed-attempt counters; else they live in the database. */
  redis?: Redis | null,
) {
  const db: Db = database.db;
  const queued = createQueueSignal(database, 'tasman_messages_queued');
  // Raised after committing a transaction that called recordEvent: wakes the webhook worker (which also polls).
  const webhooks = createQueueSignal(database, 'tasman_webhooks');
  // Seals webhook signing secrets; a bad TASMAN_SECRET_KEY stops start-up here with a message naming it.
  const secretKey = loadOrCreateKey({ envValue: config.secretKey ?? undefined, dataDir: config.dataDir });
  const failures = createFailureCounter({ db, redis });
  const throttle = createSignInThrottle({ failures, secretKey });
  const twoFactor = createTwoFactorService({ db, secretKey, throttle, now });
  const audit = createAuditService({ db, now });
  const mail = createMailer({ db, smtpUrl: config.mail.smtpUrl, from: config.mail.from, logger: logger.child({ component: 'mail' }) });
  const sessions = createSessionService({ db, publicUrl: config.publicUrl, twoFactor, throttle, mail, refused: audit.refused });
  const operatorSignIn = createOperatorSignIn({
    db, secretKey, publicUrl: config.publicUrl, throttle, openSession: sessions.openOperatorSession, refused: audit.refused,
  });
  const keys = createKeyService({ db });
  const links = createLinkService({ db, base: config.optoutLinkBase, onEvents: () => webhooks.raise() });
  // Set by the webhook role while it runs in this process: receipts recorded here start their webhooks at once.
  const firstAttempts: FirstAttemptSlot = { current: null };
  const receipts = createReceiptService({
    db, linksOf: links.viewsOf, onEvents: () => webhooks.raise(), firstAttempts: () => firstAttempts.current?.() ?? null,
    // With the SMPP server on, a message's outcome queues the receipt its ESME asked for, in the same transaction.
    ...(config.smppServer ? { onFinal: queueReceipts } : {}),
    validityHours: config.messageValidityHours, logger: logger.child({ component: 'receipts' }),
    carrierValidityHours: Object.fromEntries((config.carriers.config?.carriers ?? []).map((c) => [c.id, c.validityHours])),
  });
  const messages = createMessageService({
    db, optoutLinkBase: config.optoutLinkBase, links, sharedSender: config.sharedSender, onQueued: (count) => { metrics.accepted.inc(count); queued.raise(); }, now,
    listRecipients: (accountId, listId) => listSendRecipients(db, accountId, listId),
  });
  return {
    db,
    database,
    config,
    metrics,
    signals: { queued, webhooks },
    firstAttempts,
    secretKey,
    authenticate: createAuthenticator(db, { listen: database.listen }) satisfies Authenticate,
    idempotency: createIdempotency(db),
    /** Failed attempts at a secret per source address (AUTH_FAILURE_LIMIT a minute). */
    addressThrottle: createAddressThrottle({ failures, limit: config.authFailureLimit }),
    sessions,
    mail,
    passwordResets: createPasswordResetService({ db, publicUrl: config.publicUrl, mail, failures }),
    twoFactor,
    admin: createAdminService({ db, invite: sessions.invite }),
    operators: createOperatorService({ db, issueLink: operatorSignIn.issueLink }),
    operatorSignIn,
    messages,
    links,
    replies: createReplyService({ db, messages }),
    conversations: createConversationService({ db }),
    senders: createSenderService({ db }),
    senderRequests: createSenderRequestService({ db }),
    settings: createSettingsService({ db }),
    audit,
    campaigns: createCampaignService({ db }),
    optouts: createOptoutService({ db }),
    credits: createCreditService({ db }),
    webhooks: createWebhookService({ db, secretKey, allowPrivate: config.webhook.allowPrivate, onQueued: () => webhooks.raise() }),
    optoutLink: createOptoutLinkService({ db, sharedSender: config.sharedSender }),
    reports: createReportService({ db }),
    accounts: createAccountService({
      db,
      inviteOwner: async (tx, accountId, email) => {
        const owner = await insertUser(tx, accountId, { email, name: null, role: 'owner', canSend: true, canBilling: true });
        if (owner) await sessions.invite(tx, accountId, owner.id);
      },
    }),
    keys,
    accountKeys: createAccountKeyService({ db, keys }),
    smppCredentials: createSmppCredentialService({ db }),
    contacts: createContactService({ db }),
    lists: createListService({ db }),
    templates: createTemplateService({ db }),
    users: createUserService({ db, invite: sessions.invite, emailSent: mail.sends }),
    numbers: createNumberService({ db, creditPriceCents: config.creditPriceCents, maxNumbers: config.maxNumbers }),
    receipts,
    inbox: createInboxService({
      db, sharedSender: config.sharedSender, onEvents: () => webhooks.raise(), dedupSeconds: config.inboundDedupSeconds,
      ...(config.smppServer ? { onInbound: queueInbound } : {}),
    }),
    /** This process's carriers (built when it runs the workers, started by the carrier role), else null. */
    carriers,
    carrierAdmin,
    status: createStatusService({ db, carriers: remoteCarriers ?? carriers, receiptBacklogMs: () => receipts.backlogAgeMs() }),
  };
}

export type Services = ReturnType<typeof createServices>;

export interface ComposeOptions {
  /** Default: config.roles (TASMAN_ROLES). */
  roles?: Roles;
  /** Default: a logger at config.logLevel. `false` silences the HTTP layer too. */
  logger?: Logger | false;
  /** The operator token. Default: TASMAN_ADMIN_TOKEN, else (embedded database) the one generated in DATA_DIR. */
  adminToken?: string | null;
  /** Connections to PostgreSQL. Default: config.databasePoolSize. */
  poolSize?: number;
  /** Listen on this address before the workers start (tasman start); tests inject instead. */
  listen?: { port: number; host: string };
  /** The sending clock (send_at, quiet hours, the daily cap's day). Default: the system clock. */
  now?: () => Date;
  /**
   * An API process of `tasman start` with TASMAN_WORKERS ≥ 1: the workers role, the carrier links and the built-in
   * SMSCs run in another process of the same service, reached through the primary (platform/cluster/peer.ts).
   */
  workersPeer?: WorkersPeer;
}

export interface Composition<App extends FastifyInstance | null = FastifyInstance | null> {
  /** Ready; listening when options.listen was given, else the caller injects (tests). Null without the API role. */
  app: App;
  /** The API's address when listening, else ''. */
  url: string;
  roles: Roles;
  services: Services;
  /** The built-in SMSC when this process runs it (SMPP_HOST unset), else null. */
  simulator: SimulatorHandle | null;
  /** The carrier links this process holds (workers role), for readiness and the cluster's primary. */
  carriers(): CarrierStatus[];
  /** The SMPP server for customers' SMPP clients when this process runs it (workers role, SMPP_SERVER_PORT), else null. */
  smppServer: SmppServer | null;
  /** Stops everything in reverse order of start: the API first, then the workers, then the database. */
  close(): Promise<void>;
}

/** What the HTTP app needs of the process, beside the services. */
interface ApiParts {
  config: Config;
  options: ComposeOptions;
  services: Services;
  logger: Logger;
  adminToken: string | null;
  simulator: SimulatorHandle | null;
  peer: WorkersPeer | null;
  carrierStatus: () => CarrierStatus[];
  stops: Stop[];
  redis: Redis | null;
}

/**
 * The API role: the rate limiter (with Redis when REDIS_URL is set), readiness, and the Fastify app with every
 * route. Loaded only by a process that serves the API: Fastify, the route schemas, swagger and the MCP server
 * are not loaded by a workers process (docs/decisions/0019-composition-root-and-roles.md).
 */
async function startApi({ config, options, services, logger, adminToken, simulator, peer, carrierStatus, stops, redis }: ApiParts): Promise<FastifyInstance> {
  const [{ buildApp }, { createRateLimiter }, { createHealthService }, tls] = await Promise.all([
    import('./app.ts'), import('./platform/http/rate-limit/index.ts'), import('./modules/health/health.service.ts'),
    config.tls ? import('./platform/tls.ts') : null,
  ]);
  const served = config.tls && tls ? startupTls(tls, config.tls, logger) : null;
  const limiter = createRateLimiter({ rps: config.rateLimit.rps, concurrency: config.rateLimit.concurrency, redis: redis ?? undefined, log: logger });
  stops.push(() => limiter.close());
  // Ready means this process's roles can do their work: an API process of a cluster with a workers process answers
  // for its carrier links too (the service's own roles); with TASMAN_ROLES=api it answers for the API alone.
  const roles = options.roles ?? config.roles;
  const answersFor = peer ? (peer.runsWorkers ? peer.carriers : () => []) : carrierStatus;
  const health = createHealthService({ db: services.db, carriers: answersFor, checksCarriers: roles.workers || (peer?.runsWorkers ?? false) });
  const app = await buildApp({
    services, simulator: simulator ?? (peer ? { injectInbound: peer.injectInbound } : null), limiter, logger: options.logger === false ? false : logger, adminToken, health,
    metrics: services.metrics, metricsToken: config.metricsToken, trustProxy: config.trustProxy, requestTimeoutMs: config.requestTimeoutMs,
    tls: served,
  });
  if (config.tls && tls) {
    // A renewed certificate is served to new connections at once; open ones keep the one they agreed on.
    const log = logger.child({ component: 'tls' });
    const stopWatching = tls.watchTls({
      files: config.tls,
      apply: (credentials) => (app.server as unknown as { setSecureContext(c: typeof credentials): void }).setSecureContext(credentials),
      onReloaded: (summary) => log.info({ certificate: summary }, 'TLS certificate reloaded'),
      onRejected: (message) => log.error(`TLS certificate not reloaded, the previous one is still served: ${message}`),
    });
    stops.push(async () => stopWatching());
  }
  return app;
}

/** The certificate at start: one line naming the setting and file when it cannot be served. */
function startupTls(tls: typeof TlsModule, files: NonNullable<Config['tls']>, logger: Logger) {
  try {
    const loaded = tls.loadTls(files);
    logger.info({ certificate: loaded.summary }, 'serving HTTPS');
    return loaded.credentials;
  } catch (err) {
    throw err instanceof tls.TlsFileError ? new StartupError(err.message) : err;
  }
}

/** The operator's carrier view and route reload, relayed to the workers process of the cluster. */
const relayedCarrierAdmin = (relay: WorkersPeer['carrierAdmin']): CarrierAdminService => ({
  view: () => relay('view') as ReturnType<CarrierAdminService['view']>,
  reloadRoutes: () => relay('reload') as ReturnType<CarrierAdminService['reloadRoutes']>,
  reloadCarriers: () => relay('reload-carriers') as ReturnType<CarrierAdminService['reloadCarriers']>,
  // The workers process of the cluster hears announcements itself.
  onAnnounced: async () => null,
});

/**
 * Builds the whole process: database (migrated), services, the HTTP app, the built-in SMSC when SMPP_HOST is
 * unset, and the background roles the process runs. The SMSC depends on configuration only, not on the roles,
 * so `POST /admin/simulator/inbound` is there whenever it runs. Each role's code is imported only when the process
 * runs it: an API process of a cluster loads no SMPP stack, a workers process no Fastify.
 */
export async function compose(config: Config, options: ComposeOptions & { roles: { api: true; workers: boolean } }): Promise<Composition<FastifyInstance>>;
export async function compose(config: Config, options?: ComposeOptions): Promise<Composition>;
export async function compose(config: Config, options: ComposeOptions = {}): Promise<Composition> {
  const roles = options.roles ?? config.roles;
  const peer = options.workersPeer ?? null;
  const logger = options.logger === false ? createLogger('silent') : options.logger ?? createLogger(config.logLevel);
  const stops: Stop[] = [];
  const close = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: options.poolSize ?? config.databasePoolSize, postgresUser: config.postgresUser,
      connectTimeoutMs: config.databaseConnectTimeoutMs, logger: logger.child({ component: 'database' }),
    });
    stops.push(() => database.close());
    const metrics = createMetrics(peer ? { render: peer.renderMetrics } : {});
    // The built-in SMSCs run whenever no carrier is configured, whatever the roles (the operator's inbound route
    // uses the first); the carriers are built (not started) first so that services get them explicitly.
    // In a cluster they run beside the carrier links, in the workers process, never in an API process, which
    // therefore never loads the carrier code.
    const runsSimulators = config.carriers.config === null && !peer;
    const carrier = runsSimulators || roles.workers ? await import('./carrier/index.ts') : null;
    const simulators = runsSimulators
      ? await carrier!.startSimulators(config, logger.child({ component: 'simulator' })).catch((err: { port?: number }) => {
        throw err.port === config.simulator.controlPort && err.port !== config.simulator.port
          ? portInUse(err, 'SIM_CONTROL_PORT', config.simulator.controlPort)
          : portInUse(err, 'SIM_PORT', err.port ?? config.simulator.port);
      })
      : [];
    for (const s of simulators) stops.push(() => s.stop());
    if (simulators.length > 0) logger.info({ ports: simulators.map((s) => s.port) }, 'built-in SMSC simulator started (no carrier configured)');
    const simulator = simulators[0] ?? null;
    const carriers = roles.workers ? carrier!.openCarriers(config, simulators.map((s) => s.port), logger.child({ component: 'carrier' })) : null;
    // An API process of a cluster answers /status for the workers process's carriers (as reported to it); without
    // one (TASMAN_ROLES=api) it has no link of its own and /status reads the service's state from the database.
    const remote = peer?.runsWorkers ? { health: () => ({ bound: peer.carriers().some((c) => c.bound) }), view: () => ({ unservedCountries: peer.unservedCountries() }) } : undefined;
    const carrierAdmin = peer
      ? relayedCarrierAdmin(peer.carrierAdmin)
      : (await import('./modules/carriers/carriers.service.ts')).createCarrierAdminService({
        db: database.db, carriers, file: config.carriers.file, reread: config.carriers.file ? () => rereadCarriers() : null,
        announce: (token) => database.notify(CARRIERS_RELOAD_CHANNEL, token),
      });
    // ioredis is loaded only when REDIS_URL names a server and this process serves the API.
    const redis = config.redisUrl && roles.api ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : null;
    // Every failed reconnect emits an error: the limiter reports the outage itself, once a minute.
    redis?.on('error', () => {});
    if (redis) stops.push(async () => { redis.disconnect(); });
    const services = createServices(config, database, metrics, logger, carriers, carrierAdmin, options.now, remote, redis);
    stops.push(async () => { await Promise.all([services.signals.queued.close(), services.signals.webhooks.close()]); });
    const sealed = await services.webhooks.sealStoredUrlCredentials();
    if (sealed > 0) logger.info({ endpoints: sealed }, 'webhook URL credentials saved before sealing existed are now sealed');

    let adminToken = options.adminToken !== undefined ? options.adminToken : config.adminToken;
    if (!adminToken && options.adminToken === undefined && config.embedded) {
      const generated = loadOrCreateAdminToken(config.dataDir);
      adminToken = generated.token;
      // The banner names the file; reusing it is only worth a debug line (each process of a cluster reads it).
      logger[generated.created ? 'info' : 'debug']({ file: `${config.dataDir}/admin.token` }, generated.created ? 'generated an operator token' : 'using the operator token in DATA_DIR');
    }

    // Readiness and metrics read the carriers from the moment the API listens, before the links have started:
    // a carrier that has not bound yet is unbound, so the process is not ready until each has bound once.
    const carrierStatus = (): CarrierStatus[] =>
      (carriers?.view().carriers ?? []).map((c) => ({ name: c.id, bound: c.state === 'bound', address: c.address }));
    metrics.watch({
      queues: () => queueSizes(services.db), carriers: carrierStatus, database: () => ping(services.db),
      binds: () => (carriers?.view().carriers ?? []).flatMap((c) => c.binds.map((b) => ({
        carrier: c.id, bind: b.index, bound: b.state === 'bound', inFlight: b.inFlight, submitsPerSecond: b.submitsPerSecond, errors: b.errors, tps: b.tps, throttled: b.throttled,
        throttledNow: b.throttledNow,
      }))),
      receiptsWaiting: () => receiptsWaiting(services.db),
      receiptsUnmatched: () => services.receipts.orphans(),
      ...(config.smppServer ? { smppServer: () => smppServerGauges(services.db) } : {}),
      receiptIdConflicts: () => (carriers?.view().carriers ?? []).map((c) => ({ carrier: c.id, conflicts: c.receiptIds.conflicts })),
    });

    const app = roles.api ? await startApi({ config, options, services, logger, adminToken, simulator, peer, carrierStatus, stops, redis }) : null;
    const closeApp = async () => { await app?.close(); };
    stops.push(closeApp);
    await app?.ready();
    // The API listens before any worker starts: a taken port stops start-up before anything is sent.
    const url = app && options.listen
      ? await app.listen(options.listen).catch((err: unknown) => { throw portInUse(err, 'PORT', options.listen!.port); })
      : '';
    let smppServer: SmppServer | null = null;
    if (carriers) {
      const { startWorkers } = await import('./compose-workers.ts');
      const workers = await startWorkers(config, services, carriers, logger, options.now);
      smppServer = workers.smppServer;
      stops.push(...workers.stops);
      // On close the API still stops first, then the workers drain.
      stops.splice(stops.indexOf(closeApp), 1);
      stops.push(closeApp);
    }
    return { app, url, roles, services, simulator, carriers: carrierStatus, smppServer, close };
  } catch (err) {
    await close();
    throw err;
  }
}
