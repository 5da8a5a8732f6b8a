// What `tasman start` shows and does around serving, shared by the single process, the cluster's primary
// (supervise.ts) and its children, so neither of those modules imports the other's.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Config } from '../config.ts';
import type { Logger } from '../platform/logger.ts';
import { describeUrl } from '../platform/db/connect-retry.ts';

export interface Serving {
  url: string;
  dashboard: boolean;
  /** With TASMAN_WORKERS ≥ 1: the API processes and whether a workers process runs beside them. */
  processes?: { api: number; workers: number };
}

/** The one start-up banner: where everything is, and a loud warning when the simulator stands in for a carrier. */
export function banner(config: Config, serving: Serving, logger: Logger): void {
  const token = config.adminToken ? 'TASMAN_ADMIN_TOKEN' : config.embedded ? `${config.dataDir}/admin.token` : 'none: the operator API is off (set TASMAN_ADMIN_TOKEN)';
  const carriers = config.carriers.config?.carriers;
  const carrier = carriers ? carriers.map((c) => `${c.id} ${c.host}:${c.port}${c.binds > 1 ? ` ×${c.binds}` : ''}`).join(', ') : 'the built-in SMSC simulator';
  logger.info({
    url: serving.url,
    ...(serving.url ? { docs: `${serving.url}/docs` } : {}),
    ...(serving.dashboard ? { dashboard: `${serving.url}/app/` } : {}),
    operator_token: token,
    database: config.embedded ? `embedded PostgreSQL in ${config.dataDir}/postgres` : describeUrl(config.databaseUrl!),
    carrier,
    roles: config.roles,
    ...(serving.processes ? { processes: serving.processes } : {}),
    // Without Redis each process counts a key's requests itself, so the limits hold per process (decision 0009).
    ...(serving.processes && serving.processes.api > 1 && !config.redisUrl ? { rate_limits: 'per process (set REDIS_URL to share them)' } : {}),
  }, 'tasman started');
  if (!carriers) {
    logger.warn('THE BUILT-IN SMSC SIMULATOR STANDS IN FOR A CARRIER: no message reaches a phone. Set SMPP_HOST to deliver for real.');
  }
}

/**
 * Full garbage collections 10, 20 and 30 s after start-up. Compiling every route's schemas and serializers grows
 * V8's young generation to its largest, and an idle process never gives it back: about 30 MB of empty heap per
 * process at rest (measured; decision 0037). V8 shrinks it in a collection only when the process allocates
 * little at that moment: one 2 s after the banner shrank nothing, one at 10 s settled the API processes but the
 * workers' polling loops often kept theirs; three settled every process tried. `gc` is not exposed without a node
 * flag, which `tasman` cannot pass to itself, so it is exposed here.
 */
export function settleHeap(everyMs = 10_000): void {
  for (const at of [everyMs, 2 * everyMs, 3 * everyMs]) {
    setTimeout(() => {
      setFlagsFromString('--expose-gc');
      (runInNewContext('gc') as () => void)();
    }, at).unref();
  }
}

/** The signals that stop `tasman start`: the single process, the cluster's primary and its children alike. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
