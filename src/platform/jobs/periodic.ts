import { createWorkerLoop } from './worker-loop.ts';

/**
 * A job that runs every `everyMs` (first after `firstAfterMs`), on the worker loop: never two runs at once in one
 * process, a failed run logged and retried at the next interval, and stop() waits for a run in progress.
 * Jobs safe to run from several processes at once (retention, purges) need nothing more; each statement they run
 * claims its own rows.
 */
export function startPeriodic(options: {
  name: string;
  everyMs: number;
  firstAfterMs?: number;
  run(now: Date): Promise<unknown>;
  logger: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  clock?: () => Date;
}): () => Promise<void> {
  const clock = options.clock ?? (() => new Date());
  let nextAt = Date.now() + (options.firstAfterMs ?? options.everyMs);
  const loop = createWorkerLoop<Date>({
    name: options.name,
    concurrency: 1,
    pollMs: options.everyMs,
    logger: options.logger,
    claim: async () => {
      const due = Date.now() >= nextAt;
      if (due) nextAt = Date.now() + options.everyMs;
      loop.wakeAt(nextAt);
      return due ? [clock()] : [];
    },
    handle: async (now) => {
      try {
        await options.run(now);
      } catch (err) {
        options.logger.warn({ err: (err as Error).message, job: options.name }, 'periodic job failed; retrying at the next interval');
      }
    },
  });
  void loop.start();
  return () => loop.stop();
}
