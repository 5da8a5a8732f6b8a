import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { compose, type Composition, type Services, type SimulatorHandle } from '../../src/compose.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createScratchDatabase, testDatabaseUrl } from './scratch-db.ts';
import { auditErrors } from './documented-errors.ts';

export const ADMIN_TOKEN = 'test-admin-token';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  simulator: SimulatorHandle | null;
  /** The SMPP server for customers' clients, with workers and SMPP_SERVER_PORT set. */
  smppServer: Composition['smppServer'];
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /**
   * Also run the background workers (dispatcher, carrier link to the built-in SMSC unless SMPP_HOST is given), as
   * `npm start` does. The app then gets a scratch database of its own.
   */
  workers?: boolean;
  /**
   * A scratch database of its own even without workers: for tests of service-wide state (the queue age behind
   * GET /status), which other files' queued messages in the shared database would otherwise change.
   */
  ownDatabase?: boolean;
  /** A fixed sending clock (send_at, quiet hours, the daily cap's day): dates by calendar, not by timers. */
  now?: () => Date;
  /** This database instead of a new one (two instances of Tasman on one database: pass the first's `config.databaseUrl`). */
  database?: string;
}

/**
 * The production app, built by the composition root, on the test run's PostgreSQL database (TEST_DATABASE_URL,
 * set by the global setup to the embedded server unless given). Tests isolate themselves with fresh accounts,
 * never by resetting tables. The built-in SMSC runs (on a port the OS picks) unless SMPP_HOST is given.
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-test-'));
  // Workers claim every queued message in their database: they get one of their own.
  const scratch = !options.database && (options.workers || options.ownDatabase) ? await createScratchDatabase() : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    RATE_LIMIT_RPS: '100000',
    RATE_LIMIT_CONCURRENCY: '10000',
    // Test files share one database and one address (127.0.0.1): the per-address limit is tested with its own.
    AUTH_FAILURE_LIMIT: '1000000',
    LOG_LEVEL: 'silent',
    SIM_PORT: '0',
    DATABASE_URL: options.database ?? scratch?.url ?? testDatabaseUrl(),
    ...env,
  });
  const composed = await compose(config, {
    roles: { api: true, workers: options.workers ?? false }, logger: false, adminToken: ADMIN_TOKEN, poolSize: 10, now: options.now,
  });
  if (process.env.TASMAN_AUDIT_ERRORS) auditErrors(composed.app, process.env.TASMAN_AUDIT_ERRORS);
  return {
    app: composed.app, services: composed.services, simulator: composed.simulator, smppServer: composed.smppServer, config,
    async close() {
      await composed.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (scratch) await scratch.drop();
    },
  };
}
