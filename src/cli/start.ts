import { accessSync, constants, mkdirSync } from 'node:fs';
import pinoPretty from 'pino-pretty';
import type { Config } from '../config.ts';
import { startTasman, type Running } from '../main.ts';
import { createLogger, type Logger } from '../platform/logger.ts';
import { StartupError } from '../platform/startup-error.ts';
import { describeUrl } from '../platform/db/connect-retry.ts';

/** Pretty and human on a terminal, JSON lines otherwise (LOG_FORMAT overrides). */
export function processLogger(config: Config): Logger {
  if (config.logFormat === 'json') return createLogger(config.logLevel);
  return createLogger(config.logLevel, pinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service', sync: true }));
}

/** What must hold before anything starts; each failure is one line that says what to do. */
export function preflight(config: Config): void {
  if (config.databaseUrl !== null && config.carriers.config === null && !config.simulatorAllowed) {
    throw new StartupError('DATABASE_URL is set but SMPP_HOST is not: set SMPP_HOST to your carrier\'s SMSC, or TASMAN_CARRIERS to a carriers file (or TASMAN_SIMULATOR=true to run the built-in simulator, which delivers nothing; never in production)');
  }
  // DATA_DIR holds the embedded database and the generated token and key; with all three supplied it is unused.
  if (config.embedded || !config.secretKey) {
    try {
      mkdirSync(config.dataDir, { recursive: true });
      accessSync(config.dataDir, constants.W_OK);
    } catch (err) {
      throw new StartupError(`DATA_DIR ${config.dataDir} is not writable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): fix its permissions or set DATA_DIR to a writable directory`);
    }
  }
}

/** The one start-up banner: where everything is, and a loud warning when the simulator stands in for a carrier. */
function banner(config: Config, running: Running, logger: Logger): void {
  const token = config.adminToken ? 'TASMAN_ADMIN_TOKEN' : config.embedded ? `${config.dataDir}/admin.token` : 'none: the operator API is off (set TASMAN_ADMIN_TOKEN)';
  const carriers = config.carriers.config?.carriers;
  const carrier = carriers ? carriers.map((c) => `${c.id} ${c.host}:${c.port}${c.binds > 1 ? ` ×${c.binds}` : ''}`).join(', ') : 'the built-in SMSC simulator';
  // The dashboard is served at /app/ wherever the API role runs (docs/decisions.md, issue 13).
  const hasDashboard = running.url !== '' && running.app.hasRoute({ method: 'GET', url: '/app' });
  logger.info({
    url: running.url,
    ...(running.url ? { docs: `${running.url}/docs` } : {}),
    ...(hasDashboard ? { dashboard: `${running.url}/app/` } : {}),
    operator_token: token,
    database: config.embedded ? `embedded PostgreSQL in ${config.dataDir}/postgres` : describeUrl(config.databaseUrl!),
    carrier,
    roles: config.roles,
  }, 'tasman started');
  if (!carriers) {
    logger.warn('THE BUILT-IN SMSC SIMULATOR STANDS IN FOR A CARRIER: no message reaches a phone. Set SMPP_HOST to deliver for real.');
  }
}

/** Runs until SIGINT or SIGTERM, then shuts down cleanly. Returns -1: the process stays up. */
export async function runStart(config: Config): Promise<number> {
  preflight(config);
  const logger = processLogger(config);
  const running = await startTasman(config, config.roles, logger);
  banner(config, running, logger);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    running.close().then(() => process.exit(0), (err) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return -1;
}
