import type { Config } from './config.ts';
import type { Database, Db } from './platform/db/client.ts';
import { createIdempotency } from './platform/http/idempotency.ts';
import type { Authenticate } from './platform/http/auth.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { createCampaignService } from './modules/campaigns/campaigns.service.ts';
import { createMessageService } from './modules/messages/messages.service.ts';
import { createAuthenticator } from './modules/keys/authenticator.ts';
import { createQueueSignal } from './platform/jobs/signal.ts';

/** Every service, built once per process from the database and configuration; routes and workers share them. */
export function createServices(deps: { config: Config; database: Database }) {
  const { config, database } = deps;
  const db: Db = database.db;
  const queued = createQueueSignal(database, 'tasman_messages_queued');
  return {
    db,
    database,
    config,
    signals: { queued },
    authenticate: createAuthenticator(db) satisfies Authenticate,
    idempotency: createIdempotency(db),
    admin: createAdminService({ db }),
    messages: createMessageService({
      db, optoutLinkBase: config.optoutLinkBase, sharedSender: config.sharedSender, onQueued: () => queued.raise(),
    }),
    campaigns: createCampaignService({ db }),
  };
}

export type Services = ReturnType<typeof createServices>;
