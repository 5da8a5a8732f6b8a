// Receipts that never come: for carriers whose SMSC answers query_sm, a message still without a final
// receipt `afterMs` after its submit is queried, and again every `afterMs` until its validity period runs out. A
// final answer is applied by the carrier exactly as a receipt would be (status, receipt record, webhook); a
// non-final one waits for the next round; an error leaves the message to the expiry job.
import type { CarrierSet } from '../../carrier/index.ts';
import type { Db } from '../../platform/db/client.ts';
import { startPeriodic } from '../../platform/jobs/periodic.ts';
import { unreceipted } from './carriers.repo.ts';

const PAGE = 500;
/** query_sm sent per round at most: a backlog is worked through over several rounds, not in one burst. */
const MAX_PER_ROUND = 5_000;
/** Queries in flight at once (each bind's window bounds them too). */
const CONCURRENCY = 20;
/** Remembered ids per carrier: asked again only once `afterMs` has passed since the last ask. */
const MAX_REMEMBERED = 200_000;

export interface QueryRound { queried: number; final: number; pending: number; errors: number }

export function createReceiptQueries(deps: { db: Db; carriers: Pick<CarrierSet, 'queryPlans' | 'queryReceipt'>; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const asked = new Map<string, Map<string, number>>();

  async function runCarrier(plan: ReturnType<CarrierSet['queryPlans']>[number], round: QueryRound): Promise<void> {
    const last = asked.get(plan.carrier) ?? new Map<string, number>();
    asked.set(plan.carrier, last);
    const at = now();
    const due: Array<{ smscId: string; from: string }> = [];
    let after: { sentAt: string; id: string } | null = null;
    while (due.length < MAX_PER_ROUND) {
      const page = await unreceipted(deps.db, { carrier: plan.carrier, from: new Date(at - plan.validityMs), to: new Date(at - plan.afterMs), after, limit: PAGE });
      for (const m of page) {
        const previous = last.get(m.smscId);
        if (previous === undefined || at - previous >= plan.afterMs) due.push({ smscId: m.smscId, from: m.from });
        after = { sentAt: m.sentAt, id: m.messageId };
      }
      if (page.length === 0 || new Set(page.map((m) => m.messageId)).size < PAGE) break;
    }
    const work = due.slice(0, MAX_PER_ROUND);
    const next = async (): Promise<void> => {
      for (let item = work.shift(); item; item = work.shift()) {
        last.delete(item.smscId);
        last.set(item.smscId, now());
        if (last.size > MAX_REMEMBERED) last.delete(last.keys().next().value!);
        const answer = await deps.carriers.queryReceipt(plan.carrier, { smscMessageId: item.smscId, from: item.from });
        round.queried += 1;
        if (answer.outcome === 'final') round.final += 1;
        else if (answer.outcome === 'pending') round.pending += 1;
        else round.errors += 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, next));
  }

  return {
    /** One round over every carrier that answers query_sm. */
    async run(): Promise<QueryRound> {
      const round: QueryRound = { queried: 0, final: 0, pending: 0, errors: 0 };
      for (const plan of deps.carriers.queryPlans()) await runCarrier(plan, round);
      return round;
    },
    /** How often to run: half the shortest wait (so a message is asked within 1.5 × afterMs), at most a minute. */
    everyMs(): number | null {
      const plans = deps.carriers.queryPlans();
      if (plans.length === 0) return null;
      return Math.max(250, Math.min(60_000, Math.min(...plans.map((p) => p.afterMs)) / 2));
    },
  };
}

/** Runs the rounds in the carrier role when some carrier answers query_sm; returns its stop (or a no-op). */
export function startReceiptQueries(deps: { db: Db; carriers: CarrierSet; logger: Parameters<typeof startPeriodic>[0]['logger'] & { info(obj: object, msg?: string): void } }): () => Promise<void> {
  const queries = createReceiptQueries(deps);
  const everyMs = queries.everyMs();
  if (everyMs === null) return async () => {};
  return startPeriodic({
    name: 'query_sm for messages without a receipt', everyMs, logger: deps.logger,
    run: async () => {
      const round = await queries.run();
      if (round.queried > 0) deps.logger.info({ ...round }, 'query_sm round');
    },
  });
}
