import type { Config } from './config.ts';
import type { Database, Db } from './platform/db/client.ts';
import { createIdempotency } from './platform/http/idempotency.ts';
import type { Authenticate } from './platform/http/auth.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { createCampaignService } from './modules/campaigns/campaigns.service.ts';
import { createOptoutService } from './modules/optouts/optouts.service.ts';
import { createCreditService } from './modules/credits/credits.service.ts';
import { createMessageService } from './modules/messages/messages.service.ts';
import { createAuthenticator } from './modules/keys/authenticator.ts';
import { createQueueSignal } from './platform/jobs/signal.ts';
import { loadOrCreateKey } from './platform/crypto/secret-box.ts';
import { createWebhookService } from './modules/webhooks/webhooks.service.ts';
import { createOptoutLinkService } from './modules/optout-link/optout-link.service.ts';
import { createReportService } from './modules/reports/reports.service.ts';
import { createAccountService } from './modules/accounts/accounts.service.ts';
import { createAccountKeyService } from './modules/accounts/account-keys.service.ts';
import { createUserService } from './modules/users/users.service.ts';
import { createNumberService } from './modules/numbers/numbers.service.ts';
import { createReceiptService } from './modules/receipts/receipts.service.ts';
import { createInboxService } from './modules/inbox/inbox.service.ts';

/** The built-in SMSC when this process runs it (workers set it): POST /admin/simulator/inbound uses it. */
export interface SimulatorHandle {
  injectInbound(message: { from: string; to: string; text: string }): Promise<void>;
}

/** Every service, built once per process from the database and configuration; routes and workers share them. */
export function createServices(deps: { config: Config; database: Database }) {
  const { config, database } = deps;
  const db: Db = database.db;
  const queued = createQueueSignal(database, 'tasman_messages_queued');
  // Raise after committing a transaction that called recordEvent: wakes the webhook worker (which also polls).
  const webhooks = createQueueSignal(database, 'tasman_webhooks');
  // Seals webhook signing secrets; a bad TASMAN_SECRET_KEY stops start-up here with a message naming it.
  const secretKey = loadOrCreateKey({ envValue: config.secretKey ?? undefined, dataDir: config.dataDir });
  return {
    db,
    database,
    config,
    signals: { queued, webhooks },
    secretKey,
    authenticate: createAuthenticator(db) satisfies Authenticate,
    idempotency: createIdempotency(db),
    admin: createAdminService({ db }),
    messages: createMessageService({
      db, optoutLinkBase: config.optoutLinkBase, sharedSender: config.sharedSender, onQueued: () => queued.raise(),
    }),
    campaigns: createCampaignService({ db }),
    optouts: createOptoutService({ db }),
    credits: createCreditService({ db }),
    webhooks: createWebhookService({ db, secretKey, allowPrivate: config.webhook.allowPrivate, onQueued: () => webhooks.raise() }),
    optoutLink: createOptoutLinkService({ db }),
    reports: createReportService({ db }),
    accounts: createAccountService({ db }),
    accountKeys: createAccountKeyService({ db }),
    users: createUserService({ db }),
    numbers: createNumberService({ db }),
    receipts: createReceiptService({ db, onEvents: () => webhooks.raise() }),
    inbox: createInboxService({ db, sharedSender: config.sharedSender, onEvents: () => webhooks.raise() }),
    simulator: { current: null as SimulatorHandle | null },
    /** Stops what the services themselves hold open (the wake-up signals); the database is the caller's. */
    async close(): Promise<void> {
      await Promise.all([queued.close(), webhooks.close()]);
    },
  };
}

export type Services = ReturnType<typeof createServices>;
