/**
 * How many refused attempts the audit log records per actor per minute (decision 0057).
 * Counted in this process's memory: an attacker spread over N API processes gets N times the cap, which still
 * bounds the log's growth, and nothing is shared or persisted for a count that only needs to be roughly right.
 */
export const REFUSALS_PER_MINUTE = 20;

/** record: write the entry; capped: write one "refusals capped" entry; drop: write nothing. */
export type CapVerdict = 'record' | 'capped' | 'drop';

export function createRefusalCap(opts: { perMinute?: number | undefined; now?: (() => Date) | undefined } = {}) {
  const perMinute = opts.perMinute ?? REFUSALS_PER_MINUTE;
  const now = opts.now ?? (() => new Date());
  let minute = -1;
  // Cleared every minute, so it holds at most one minute's actors.
  const counts = new Map<string, number>();
  return {
    perMinute,
    take(actor: string): CapVerdict {
      const m = Math.floor(now().getTime() / 60_000);
      if (m !== minute) {
        minute = m;
        counts.clear();
      }
      const n = (counts.get(actor) ?? 0) + 1;
      counts.set(actor, n);
      if (n <= perMinute) return 'record';
      return n === perMinute + 1 ? 'capped' : 'drop';
    },
  };
}
