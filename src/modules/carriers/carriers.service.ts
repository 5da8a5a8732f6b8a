import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { parseRoutesOnly, type CarrierSet, type RouteRule } from '../../carrier/index.ts';
import type { CarriersConfig } from '../../carrier/carriers-config.ts';
import type { IdFormsStatus } from '../../carrier/index.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { receiptsWaiting } from './carriers.repo.ts';
import { ORPHAN_AFTER_MS, orphanStats } from '../receipts/receipts.service.ts';

export interface CarrierAdminDeps {
  db: Db;
  /** This process's carriers (it runs the workers), else null. */
  carriers: CarrierSet | null;
  /** TASMAN_CARRIERS, re-read on reload; null when the carriers come from SMPP_* or the simulator. */
  file: string | null;
  /** TASMAN_CARRIERS read and checked again, as at start-up (config.ts); null without it. */
  reread: (() => CarriersConfig) | null;
  /** Tells every other instance's workers to reload theirs (a NOTIFY carrying this instance's token). */
  announce(token: string): Promise<void>;
}


const routeView = (r: RouteRule) => ({
  ...(r.country ? { country: r.country } : {}), ...(r.prefix ? { prefix: r.prefix } : {}),
  ...(r.sender ? { sender: r.sender } : {}), ...(r.account ? { account: r.account } : {}), carriers: r.carriers,
});

/** How a carrier's ids are read, and the receipts that matched several messages or none. */
const receiptIdsView = (ids: IdFormsStatus, unmatched: { count: number; oldestSeconds: number; sampleId: string } | undefined) => ({
  submit_id_base: ids.submit, receipt_id_base: ids.receipt, conflicts: ids.conflicts, conflict_sample: ids.conflictSample,
  unmatched: unmatched?.count ?? 0, unmatched_oldest_seconds: unmatched?.oldestSeconds ?? null, unmatched_sample: unmatched?.sampleId ?? null,
});

/**
 * The operator's view of the carriers this process runs (GET /admin/carriers, `tasman admin carriers`), and the
 * reload of TASMAN_CARRIERS without a restart: the routes alone, or carriers and routes on every instance (a
 * changed carrier binds afresh before its old binds drain, so no message waits on a swap).
 */
export function createCarrierAdminService(deps: CarrierAdminDeps) {
  const running = (): CarrierSet => {
    if (!deps.carriers) throw new AppError('not_found', 'This process runs no carriers (its TASMAN_ROLES has no workers): ask a worker process');
    return deps.carriers;
  };
  // This process's own announcements come back to it through the database: the token tells them apart.
  const token = randomUUID();

  /** TASMAN_CARRIERS applied to this process's carriers; a file that does not read or hold changes nothing. */
  async function reloadHere() {
    const set = running();
    if (!deps.reread) throw new AppError('conflict', 'Carriers come from SMPP_* or the built-in simulator, not TASMAN_CARRIERS: there is nothing to reload (a restart applies SMPP_* changes)');
    let next: CarriersConfig;
    try {
      next = deps.reread();
    } catch (err) {
      throw new AppError('conflict', `${(err as Error).message}; the carriers in force are unchanged`);
    }
    const done = await set.reload(next);
    return { ...done, routes: next.routes.map(routeView) };
  }

  return {
    async view() {
      const set = running();
      const view = set.view();
      const [waiting, unmatched] = await Promise.all([receiptsWaiting(deps.db), orphanStats(deps.db, ORPHAN_AFTER_MS)]);
      const waitingFor = (carrier: string, bind: number | null) =>
        waiting.filter((w) => w.carrier === carrier && (bind === null || w.bind === bind)).reduce((n, w) => n + w.waiting, 0);
      return {
        carriers: view.carriers.map((c) => ({
          id: c.id, address: c.address, state: c.state, available: c.available, system_errors_since: c.systemErrorsSince,
          in_flight: c.binds.reduce((n, b) => n + b.inFlight, 0),
          submits_per_second: c.binds.reduce((n, b) => n + b.submitsPerSecond, 0),
          errors: c.binds.reduce((n, b) => n + b.errors, 0),
          receipts_waiting: waitingFor(c.id, null),
          receipt_ids: receiptIdsView(c.receiptIds, unmatched.find((u) => u.carrier === c.id)),
          binds: c.binds.map((b) => ({
            index: b.index, state: b.state, last_error: b.lastError, in_flight: b.inFlight, pending: b.pending,
            submits_per_second: b.submitsPerSecond, submitted: b.submitted, errors: b.errors, receipts_waiting: waitingFor(c.id, b.index),
            tps: b.tps, throttled: b.throttled, throttled_now: b.throttledNow,
            ...(b.receiver ? { receiver: b.receiver } : {}),
          })),
        })),
        routes: view.routes.map(routeView),
        unserved_countries: view.unservedCountries,
      };
    },

    /** Re-reads the routes from TASMAN_CARRIERS; new messages follow them at once. A bad file changes nothing. */
    async reloadRoutes() {
      const set = running();
      if (!deps.file) throw new AppError('conflict', 'Routes come from TASMAN_CARRIERS, which is not set: there is nothing to reload');
      let routes: RouteRule[];
      try {
        routes = parseRoutesOnly(await readFile(deps.file, 'utf8'), new Set(set.ids()));
      } catch (err) {
        throw new AppError('conflict', `${deps.file}: ${(err as Error).message}; the routes in force are unchanged`);
      }
      set.setRoutes(routes);
      return { routes: routes.map(routeView) };
    },

    /**
     * POST /admin/carriers/reload: this process's carriers when it runs them (a bad file answers conflict and
     * nothing changes anywhere), then every other process that runs carriers on the database, each re-reading its
     * own TASMAN_CARRIERS. `here` is null where this process runs none.
     */
    async reloadCarriers() {
      const here = deps.carriers ? await reloadHere() : null;
      await deps.announce(token);
      return { here, others_notified: true };
    },

    /** An announcement heard on CARRIERS_RELOAD_CHANNEL: reload here unless it was this process's own. */
    async onAnnounced(from: string) {
      if (from === token || !deps.carriers) return null;
      return reloadHere();
    },
  };
}

export type CarrierAdminService = ReturnType<typeof createCarrierAdminService>;
