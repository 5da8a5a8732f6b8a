import type { Config } from './config.ts';
import type { Logger } from './platform/logger.ts';
import type { Services } from './services.ts';
import { startWebhookWorker } from './modules/webhooks/webhooks.jobs.ts';
import { startRetention } from './modules/retention/retention.jobs.ts';
import { startCarrierLink } from './carrier-link.ts';

/**
 * Background roles: each claims its rows with FOR UPDATE SKIP LOCKED and a lease, so any number of processes may
 * run them against one PostgreSQL. Returns one function that stops them all.
 */
export async function startWorkers(deps: { config: Config; services: Services; logger: Logger }): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void>> = [];
  const sweep = setInterval(() => {
    deps.services.idempotency.purgeExpired().catch((err) => deps.logger.warn({ err }, 'idempotency purge failed'));
  }, 60_000);
  sweep.unref();
  stops.push(async () => clearInterval(sweep));
  stops.push(startRetention({ db: deps.services.db, retentionDays: deps.config.retentionDays, logger: deps.logger }));
  // The dispatcher, the SMPP link and (without SMPP_HOST) the built-in SMSC; its stop drains in the right order.
  stops.push(await startCarrierLink(deps));
  stops.push(await startWebhookWorker({
    db: deps.services.db, signal: deps.services.signals.webhooks, secretKey: deps.services.secretKey,
    webhook: deps.config.webhook, logger: deps.logger,
  }));
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
