import type { Config } from '../config.ts';
import { startTasman } from '../main.ts';
import { createLogger } from '../platform/logger.ts';

/** Runs until SIGINT or SIGTERM, then shuts down cleanly. Returns -1: the process stays up. */
export async function runStart(config: Config): Promise<number> {
  const logger = createLogger(config.logLevel);
  const running = await startTasman(config, config.roles, logger);
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
