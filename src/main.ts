import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './platform/db/client.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { createRateLimiter } from './platform/http/rate-limit/index.ts';
import { loadOrCreateAdminToken } from './platform/admin-token.ts';
import { createServices, type Services } from './services.ts';

export interface Running {
  app: FastifyInstance;
  services: Services;
  url: string;
  close(): Promise<void>;
}

/** What one process runs. `npm start` runs every role; production can split API and workers. */
export interface Roles {
  api: boolean;
  workers: boolean;
}

/**
 * Starts Tasman: database (migrated), the HTTP API, and the background roles. Shutdown runs in reverse order so
 * in-flight requests finish before the database closes.
 */
export async function startTasman(config: Config, roles: Roles = { api: true, workers: true }, logger: Logger = createLogger(config.logLevel)): Promise<Running> {
  const database: Database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
  const services = createServices({ config, database });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : null;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis error; rate limits fail open'));
  const limiter = createRateLimiter({ rps: config.rateLimit.rps, concurrency: config.rateLimit.concurrency, redis: redis ?? undefined });

  let adminToken = config.adminToken;
  if (!adminToken && config.embedded) {
    const generated = loadOrCreateAdminToken(config.dataDir);
    adminToken = generated.token;
    logger.info({ file: `${config.dataDir}/admin.token` }, generated.created ? 'generated an operator token' : 'using the operator token in DATA_DIR');
  }

  const app = await buildApp({ services, limiter, logger, adminToken });
  const stops: Array<() => Promise<void>> = [];
  if (roles.workers) {
    const { startWorkers } = await import('./workers.ts');
    stops.push(await startWorkers({ config, services, logger }));
  }
  let url = '';
  if (roles.api) {
    url = await app.listen({ port: config.port, host: config.host });
  } else {
    await app.ready();
  }
  logger.info({ url, database: database.kind, roles }, 'tasman started');

  let closed = false;
  return {
    app,
    services,
    url,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      for (const stop of stops.reverse()) await stop();
      await services.close();
      await limiter.close();
      redis?.disconnect();
      await database.close();
    },
  };
}
