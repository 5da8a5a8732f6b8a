import { readFileSync } from 'node:fs';
import type { Db } from '../../platform/db/client.ts';
import { oldestDueAgeMs } from './status.repo.ts';

export type ServiceState = 'operational' | 'degraded';

/** Past these ages the pipeline counts as stalled (a healthy link drains the queue and parked receipts in seconds). */
export const STATUS_THRESHOLDS = { queueAgeMs: 120_000, receiptBacklogMs: 60_000 } as const;

/** The package version, read once: what `version` reports. */
export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface StatusDeps {
  db: Db;
  version?: string;
  /**
   * This process's carriers when it runs the carrier role (null otherwise): whether any is bound, and the
   * countries a route names whose carriers are all down.
   */
  carriers: { health(): { bound: boolean }; view(): { unservedCountries: string[] } } | null;
  /** Age of the oldest receipt this process is still applying (0 when none). */
  receiptBacklogMs: () => number;
  now?: () => Date;
}

/**
 * `GET /status`, the client libraries' `status()`: a public health check that consumes nothing. Each service is
 * `degraded` when it is not working right now:
 * - outbound: no carrier of this process is bound, a country's route (TASMAN_CARRIERS) has no bound carrier,
 *   or the oldest message due for submission has waited longer than 2 minutes (no dispatcher, or one that cannot
 *   submit);
 * - inbound: the carrier link of this process is not bound (MO messages arrive over it);
 * - delivery_receipts: the link is not bound, or a receipt accepted from the SMSC has waited over a minute to
 *   be applied (receipt processing stuck: the database cannot keep up or is failing).
 * The queue check reads the database, so it holds whichever process runs the workers; the link and receipt
 * checks are this process's own (an API-only process has no link, and they do not count).
 */
export function createStatusService(deps: StatusDeps) {
  const now = deps.now ?? (() => new Date());

  async function status() {
    const queueAgeMs = await oldestDueAgeMs(deps.db);
    const link = deps.carriers;
    const linkDown = link !== null && !link.health().bound;
    const countryDown = link !== null && link.view().unservedCountries.length > 0;
    const state = (bad: boolean): ServiceState => (bad ? 'degraded' : 'operational');
    const services = {
      outbound: state(linkDown || countryDown || queueAgeMs > STATUS_THRESHOLDS.queueAgeMs),
      inbound: state(linkDown),
      delivery_receipts: state(linkDown || deps.receiptBacklogMs() > STATUS_THRESHOLDS.receiptBacklogMs),
    };
    const degraded = Object.values(services).some((s) => s === 'degraded');
    return {
      status: degraded ? 'degraded' as const : 'operational' as const,
      timestamp: now().toISOString(),
      version: deps.version ?? PACKAGE_VERSION,
      services,
    };
  }

  return { status };
}

export type StatusService = ReturnType<typeof createStatusService>;
