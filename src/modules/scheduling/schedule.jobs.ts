import type { Executor } from '../../platform/db/client.ts';
import { startPeriodic } from '../../platform/jobs/periodic.ts';
import type { Logger } from '../../platform/logger.ts';
import { releaseDue } from './schedule.repo.ts';

/** Rows released per statement: a short transaction, so the dispatcher starts on the first ones at once. */
export const RELEASE_BATCH = 1000;

/**
 * Releases every scheduled message that has fallen due, batch after batch, waking the dispatcher after each
 * committed batch. Safe on any number of processes at once (see releaseDue). Returns how many it released.
 */
export async function releaseAllDue(db: Executor, onReleased: (ids: string[]) => void, batch = RELEASE_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = await releaseDue(db, batch);
    total += ids.length;
    if (ids.length > 0) onReleased(ids);
    if (ids.length < batch) return total;
  }
}

/**
 * The scheduler: every `everyMs` (1 s by default) on the shared job runner, due scheduled messages become queued.
 * A message is therefore sent at most about a second after its send_at (plus the queue ahead of it).
 */
export function startScheduler(deps: { db: Executor; onReleased: (ids: string[]) => void; logger: Logger; everyMs?: number }): () => Promise<void> {
  return startPeriodic({
    name: 'scheduler', everyMs: deps.everyMs ?? 1000, firstAfterMs: 0, logger: deps.logger,
    run: async () => {
      const released = await releaseAllDue(deps.db, deps.onReleased);
      // One line per run that released anything: which process released how many (the two-process test sums them).
      if (released > 0) deps.logger.info({ job: 'scheduler', released }, 'released scheduled messages');
    },
  });
}
