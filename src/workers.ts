import type { Config } from './config.ts';
import type { Logger } from './platform/logger.ts';
import type { Services } from './services.ts';

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
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
