import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { compose, type Roles, type Services } from './compose.ts';

export type { Roles } from './compose.ts';

export interface Running {
  app: FastifyInstance;
  services: Services;
  url: string;
  close(): Promise<void>;
}

/**
 * Starts Tasman: the composition root builds the process (database, services), the API listens when this
 * process runs it, and only then do the workers start. Shutdown runs in reverse order so in-flight requests finish before the database closes.
 */
export async function startTasman(config: Config, roles: Roles = { api: true, workers: true }, logger: Logger = createLogger(config.logLevel)): Promise<Running> {
  const composed = await compose(config, { roles, logger, ...(roles.api ? { listen: { port: config.port, host: config.host } } : {}) });
  const url = composed.url;
  let closed = false;
  return {
    app: composed.app,
    services: composed.services,
    url,
    async close() {
      if (closed) return;
      closed = true;
      await composed.close();
    },
  };
}
