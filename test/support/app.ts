import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase } from '../../src/platform/db/client.ts';
import { createRateLimiter } from '../../src/platform/http/rate-limit/index.ts';
import { createServices, type Services } from '../../src/services.ts';
import { startWorkers } from '../../src/workers.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createScratchDatabase } from './scratch-db.ts';

export const ADMIN_TOKEN = 'test-admin-token';
export const onPostgres = process.env.TASMAN_TEST_DB === 'postgres';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /**
   * Also run the background workers (dispatcher, carrier link, built-in SMSC unless SMPP_HOST is given), as
   * `npm start` does. Pass SIM_PORT=0 in env. On PostgreSQL the app then gets a scratch database of its own.
   */
  workers?: boolean;
}

/**
 * The whole app on the database this project runs against: PGlite in a temporary directory, or the shared
 * PostgreSQL test database. Tests isolate themselves with fresh accounts, never by resetting tables.
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-test-'));
  // Workers claim every queued message in their database: on PostgreSQL they get one of their own.
  const scratch = options.workers && onPostgres ? await createScratchDatabase() : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    RATE_LIMIT_RPS: '100000',
    RATE_LIMIT_CONCURRENCY: '10000',
    LOG_LEVEL: 'silent',
    ...(onPostgres ? { DATABASE_URL: scratch?.url ?? process.env.TEST_DATABASE_URL! } : {}),
    ...env,
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 10 });
  const services = createServices({ config, database });
  const limiter = createRateLimiter(config.rateLimit);
  const app = await buildApp({ services, limiter, logger: false, adminToken: ADMIN_TOKEN });
  await app.ready();
  const stopWorkers = options.workers ? await startWorkers({ config, services, logger: createLogger('silent') }) : null;
  return {
    app, services, config,
    async close() {
      await app.close();
      if (stopWorkers) await stopWorkers();
      await services.close();
      await limiter.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (scratch) await scratch.drop();
    },
  };
}
