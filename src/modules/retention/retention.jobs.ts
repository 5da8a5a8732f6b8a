import type { Executor } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/logger.ts';
import { startPeriodic } from '../../platform/jobs/periodic.ts';
import { retentionCutoff, uuidv7Floor } from './cutoff.ts';
import {
  clearCampaignBodies, clearInboundBodies, clearMessageBodies, deleteInboundFragments, deleteWebhookDeliveries,
} from './retention.repo.ts';
import { deleteEntriesBefore } from '../audit/audit.service.ts';

export const DEFAULT_BATCH_SIZE = 1_000;
/** Content is due by the day; an hourly pass keeps each run small without busying the database. */
export const RETENTION_INTERVAL_MS = 60 * 60_000;
/** The first pass waits a little, so a process starting up is not also sweeping. */
const FIRST_RUN_DELAY_MS = 60_000;

export interface RetentionOptions {
  db: Executor;
  /** the clock, injected: content created before now − retentionDays is removed */
  now: Date;
  retentionDays: number;
  /** AUDIT_RETENTION_DAYS: audit log entries older than this are deleted (400 days by default). */
  auditRetentionDays?: number;
  batchSize?: number;
}

export const AUDIT_RETENTION_DEFAULT_DAYS = 400;

export interface RetentionResult {
  cutoff: string;
  messages: number;
  inbound: number;
  campaigns: number;
  webhookDeliveries: number;
  inboundFragments: number;
  auditEntries: number;
}

/** Repeats one bounded statement until a batch comes back short: nothing left, or only rows others hold. */
async function drain(step: () => Promise<number>, limit: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step();
    total += n;
    if (n < limit) return total;
  }
}

/**
 * Deletes message content older than the retention period, keeping the metadata reports count (status, parts,
 * dates, numbers, credits). Safe to run from any number of workers at once: each batch claims its rows with
 * FOR UPDATE SKIP LOCKED, so two runs split the work instead of queueing on each other.
 */
export async function runRetention(opts: RetentionOptions): Promise<RetentionResult> {
  const limit = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  const cutoff = retentionCutoff(opts.now, opts.retentionDays);
  const batch = { cutoff, now: opts.now, limit };
  const messages = await drain(() => clearMessageBodies(opts.db, batch), limit);
  const inbound = await drain(() => clearInboundBodies(opts.db, batch), limit);
  const campaigns = await drain(() => clearCampaignBodies(opts.db, batch), limit);
  const webhookDeliveries = await drain(() => deleteWebhookDeliveries(opts.db, { ...batch, idFloor: uuidv7Floor(cutoff) }), limit);
  const inboundFragments = await drain(() => deleteInboundFragments(opts.db, batch), limit);
  // The audit log keeps its own, longer period; this is the only place its entries are deleted.
  const auditCutoff = retentionCutoff(opts.now, opts.auditRetentionDays ?? AUDIT_RETENTION_DEFAULT_DAYS);
  const auditEntries = await drain(() => deleteEntriesBefore(opts.db, { cutoff: auditCutoff, limit }), limit);
  return { cutoff: cutoff.toISOString(), messages, inbound, campaigns, webhookDeliveries, inboundFragments, auditEntries };
}

/** The worker role's schedule: a pass soon after start, then hourly, on the periodic job of platform/jobs. */
export function startRetention(deps: {
  db: Executor; retentionDays: number; auditRetentionDays?: number; logger: Logger; clock?: () => Date; intervalMs?: number;
}): () => Promise<void> {
  return startPeriodic({
    name: 'retention',
    everyMs: deps.intervalMs ?? RETENTION_INTERVAL_MS,
    firstAfterMs: FIRST_RUN_DELAY_MS,
    logger: deps.logger,
    ...(deps.clock ? { clock: deps.clock } : {}),
    run: async (now) => {
      const r = await runRetention({ db: deps.db, now, retentionDays: deps.retentionDays, auditRetentionDays: deps.auditRetentionDays });
      if (r.messages + r.inbound + r.campaigns + r.webhookDeliveries + r.inboundFragments + r.auditEntries > 0) {
        deps.logger.info(r, 'retention removed content');
      }
    },
  });
}
