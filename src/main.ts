import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { compose, type Composition, type Roles, type Services } from './compose.ts';
import type { WorkersPeer } from './platform/cluster/peer.ts';

export type { Roles } from './compose.ts';

export interface Running {
  /** Null when this process does not run the API. */
  app: FastifyInstance | null;
  services: Services;
  url: string;
  /** The built-in SMSC when this process runs it. */
  simulator: Composition['simulator'];
  /** The carrier links this process holds (workers role). */
  carriers: Composition['carriers'];
  close(): Promise<void>;
}

/**
 * Starts Tasman: the composition root builds the process (database, services), the API listens when this
 * process runs it, and only then do the workers start. Shutdown runs in reverse order so in-flight requests finish before the database closes.
 * `workersPeer`: this is an API process of a cluster whose workers run in another process (cli/supervise.ts).
 */
export async function startTasman(
  config: Config, roles: Roles = { api: true, workers: true }, logger: Logger = createLogger(config.logLevel), workersPeer?: WorkersPeer,
): Promise<Running> {
  const composed = await compose(config, {
    roles, logger, ...(roles.api ? { listen: { port: config.port, host: config.host } } : {}), ...(workersPeer ? { workersPeer } : {}),
  });
  let closed = false;
  return {
    app: composed.app,
    services: composed.services,
    url: composed.url,
    simulator: composed.simulator,
    carriers: composed.carriers,
    async close() {
      if (closed) return;
      closed = true;
      await composed.close();
    },
  };
}
