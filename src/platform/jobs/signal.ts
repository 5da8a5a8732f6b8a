import type { Database } from '../db/client.ts';

export const CROSS_PROCESS_EVERY_MS = 20;
// How stale the answer to "does another process listen?" may be: a process that starts listening hears its first
// notification up to this late (it polls every second meanwhile).
export const RECHECK_LISTENERS_MS = 1_000;

/**
 * "There is new work": wakes workers in this process at once and, throttled, in other processes through
 * NOTIFY (only while another Tasman process listens on the channel). Throttling matters: NOTIFY serialises commits on a global lock, so one per send would cap throughput.
 * Workers also poll slowly, so a lost notification only delays work, never loses it.
 */
export function createQueueSignal(database: Database, channel: string) {
  const listeners = new Set<() => void>();
  let pending: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;

  function wakeLocal() {
    for (const fn of listeners) fn();
  }

  // NOTIFY only when another process listens: with every role in one process (or an API process with no workers
  // process anywhere) each one was a statement nobody heard. Asked at most once a second, and only while raising.
  let othersListen = true;
  let checkedAt = -Infinity;
  async function notifyIfHeard() {
    if (Date.now() - checkedAt >= RECHECK_LISTENERS_MS) {
      checkedAt = Date.now();
      othersListen = await database.othersListen(channel).catch(() => true);
    }
    if (othersListen) await database.notify(channel).catch(() => {});
  }

  return {
    raise(): void {
      wakeLocal();
      if (database.kind !== 'postgres' || pending) return;
      pending = setTimeout(() => {
        pending = null;
        void notifyIfHeard();
      }, CROSS_PROCESS_EVERY_MS);
      pending.unref();
    },
    /** Calls fn whenever work may be waiting (local raise or a notification from another process). */
    async subscribe(fn: () => void): Promise<() => Promise<void>> {
      listeners.add(fn);
      if (database.kind === 'postgres' && !unlisten) unlisten = await database.listen(channel, wakeLocal);
      return async () => { listeners.delete(fn); };
    },
    async close(): Promise<void> {
      if (pending) clearTimeout(pending);
      if (unlisten) await unlisten();
    },
  };
}

export type QueueSignal = ReturnType<typeof createQueueSignal>;
