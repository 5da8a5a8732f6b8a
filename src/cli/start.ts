import { accessSync, constants, mkdirSync } from 'node:fs';
import type { Config } from '../config.ts';
import type { Running } from '../main.ts';
import { createLogger, type Logger } from '../platform/logger.ts';
import { StartupError } from '../platform/startup-error.ts';
import { joinCluster, relayAnswer, type ClusterPeer } from '../platform/cluster/peer.ts';
import { banner, settleHeap, STOP_SIGNALS, type Serving } from './serving.ts';

/** Pretty and human on a terminal, JSON lines otherwise (LOG_FORMAT overrides); pino-pretty is loaded only then. */
export async function processLogger(config: Config): Promise<Logger> {
  if (config.logFormat === 'json') return createLogger(config.logLevel);
  const [{ default: pinoPretty }, { prettyOptions }] = await Promise.all([import('pino-pretty'), import('../platform/pretty-log.ts')]);
  return createLogger(config.logLevel, pinoPretty(prettyOptions()));
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

/** The dashboard is served at /app/ wherever the API role runs (decision 0021). */
const serving = (running: Running): Serving => ({
  url: running.url, dashboard: running.url !== '' && running.app !== null && running.app.hasRoute({ method: 'GET', url: '/app' }),
});

/**
 * On SIGINT, SIGTERM or SIGHUP (the terminal closed: Node would otherwise die at once and leave the embedded
 * PostgreSQL server running): `close`, then exit 0 (1 if it fails, or if it takes over 15 s).
 */
export function exitOnSignal(logger: Logger, close: () => Promise<void>, level: 'info' | 'debug' = 'info'): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger[level]({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    close().then(() => process.exit(0), (err: unknown) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => stop(signal));
}

/**
 * `tasman start`. With TASMAN_WORKERS ≥ 1 (the default) and the API role, this process becomes the primary of a
 * cluster (supervise.ts) and runs again in each child it forks; with TASMAN_WORKERS=0, or workers alone, one
 * process runs every role. Runs until SIGINT or SIGTERM. Returns -1: the process stays up.
 */
export async function runStart(config: Config): Promise<number> {
  const peer = joinCluster();
  if (peer) return runChild(config, peer);
  preflight(config);
  const logger = await processLogger(config);
  if (config.apiProcesses > 0 && config.roles.api) {
    const { runPrimary } = await import('./supervise.ts');
    return runPrimary(config, logger);
  }
  // Loaded here, not at the top: the primary of a cluster never builds the app, so it does not load it.
  const { startTasman } = await import('../main.ts');
  const running = await startTasman(config, config.roles, logger);
  banner(config, serving(running), logger);
  exitOnSignal(logger, () => running.close());
  settleHeap();
  return -1;
}

/** A child of the primary: one role (TASMAN_ROLES from the primary), quiet, answering the primary's requests. */
async function runChild(config: Config, peer: ClusterPeer): Promise<number> {
  const logger = await processLogger(config);
  const { startTasman } = await import('../main.ts');
  const running = await startTasman(config, config.roles, logger, config.roles.api ? peer.workers : undefined);
  peer.handle('metrics-json', () => running.services.metrics.registry.getMetricsAsJSON());
  let unpublish = () => {};
  if (config.roles.workers) {
    peer.handle('inbound', async (message) => {
      if (!running.simulator) throw new Error('no built-in SMSC simulator runs (SMPP_HOST is set)');
      await running.simulator.injectInbound(message as { from: string; to: string; text: string });
    });
    peer.handle('carrier-admin', (op) => relayAnswer(() => {
      const admin = running.services.carrierAdmin;
      return op === 'reload' ? admin.reloadRoutes() : op === 'reload-carriers' ? admin.reloadCarriers() : admin.view();
    }));
    unpublish = peer.publishCarriers(() => ({
      carriers: running.carriers(), unservedCountries: running.services.carriers?.view().unservedCountries ?? [],
    }));
  }
  exitOnSignal(logger, async () => { unpublish(); await running.close(); }, 'debug');
  peer.ready(serving(running));
  settleHeap();
  return -1;
}
