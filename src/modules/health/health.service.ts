import type { Db } from '../../platform/db/client.ts';
import { migrationsApplied } from '../../platform/db/client.ts';
import { ping, queueSizes } from './health.repo.ts';

/** One carrier of this process: its id (TASMAN_CARRIERS, `default` for SMPP_*), its SMSC's host:port, bound or not. */
export interface CarrierStatus { name: string; bound: boolean; address?: string }

export interface Readiness {
  ready: boolean;
  checks: { database: 'ok' | 'failed'; migrations: 'ok' | 'pending' | 'unknown'; carriers: 'ok' | 'unbound' | 'not_checked' };
  /** The first failed check, in words; null when ready. */
  failed: string | null;
}

const PING_TIMEOUT_MS = 2_000;

/**
 * Ready means this process can do its job: the database answers, every migration this build carries is applied,
 * and (worker role) every configured carrier has a bound session. API-only processes do not check carriers.
 */
export function createHealthService(deps: { db: Db; carriers: () => CarrierStatus[]; checksCarriers: boolean }) {
  async function readiness(): Promise<Readiness> {
    const checks: Readiness['checks'] = { database: 'ok', migrations: 'unknown', carriers: 'not_checked' };
    const failed: string[] = [];
    try {
      await withTimeout(ping(deps.db), PING_TIMEOUT_MS);
      checks.migrations = await migrationsApplied(deps.db) ? 'ok' : 'pending';
      if (checks.migrations === 'pending') failed.push('database migrations are not all applied (run tasman migrate)');
    } catch (err) {
      checks.database = 'failed';
      failed.push(`the database does not answer (${(err as Error).message})`);
    }
    if (deps.checksCarriers) {
      const unbound = deps.carriers().filter((c) => !c.bound).map((c) => (c.address ? `${c.name} (${c.address})` : c.name));
      checks.carriers = unbound.length === 0 ? 'ok' : 'unbound';
      if (unbound.length > 0) failed.push(`no bound SMPP session to ${unbound.join(', ')}`);
    }
    return { ready: failed.length === 0, checks, failed: failed[0] ?? null };
  }
  /** The operator's view of the pipeline: what waits in each queue and since when, and each carrier's bind. */
  async function pipeline() {
    const queues = await queueSizes(deps.db);
    return {
      queues: queues.map((q) => ({ queue: q.queue, depth: q.depth, oldest_seconds: Math.round(q.oldestSeconds) })),
      carriers: deps.carriers().map((c) => ({ name: c.name, bound: c.bound, address: c.address ?? null })),
      carriers_checked: deps.checksCarriers,
    };
  }

  return { readiness, pipeline };
}

export type HealthService = ReturnType<typeof createHealthService>;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms); }),
  ]);
}
