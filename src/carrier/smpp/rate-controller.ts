// The pace of one bind: the rate its SMSC takes, learnt from its throttling answers (docs/decisions/ on
// throttling). Pure: the clock is passed in, so tests drive it second by second.
//
//  - Never above the configured TPS (SMPP_TPS or a carrier's `tps`; 0 or unset: no configured limit, and the bind
//    runs unpaced until the SMSC first throttles it).
//  - Throttled (ESME_RTHROTTLED, ESME_RMSGQFUL): the rate drops to what the SMSC accepted over the last second,
//    times `decrease` (0.9): one throttle is the SMSC saying its limit, and what it let through is that limit.
//    Throttles within `holdMs` of a decrease are the submits sent before it, answered late: they change nothing.
//  - Each second after `holdMs` without a throttle, while the bind has the demand to use its rate (it sent at
//    least 80% of it), the rate rises by a step, one step more every five quiet seconds: close to the limit it
//    crawls (a throttle comes every few seconds), and when the carrier lifts its limit it climbs back within
//    seconds rather than minutes.

export interface RateControllerOptions {
  /** The configured submits per second per bind; 0 for none. Never exceeded. */
  ceiling: number;
  /** Milliseconds, monotonic. */
  now?: () => number;
  /** The multiplicative decrease on a throttle (default 0.9: gentle, the learnt limit does the rest). */
  decrease?: number;
  /** The lowest rate (default 1 per second). */
  floor?: number;
  /** How long after a decrease further throttles are taken as late answers (default 1 s). */
  holdMs?: number;
  /** How long after a throttling answer the bind counts as throttled now, whatever its rate (default 10 s). */
  recentMs?: number;
}

export interface RateController {
  /** The submits per second the bind may send now (Infinity: unpaced). */
  rate(): number;
  /** A submit_sm was sent (accepted or not): the demand that lets the rate rise. */
  sent(n?: number): void;
  /** The SMSC accepted a submit_sm. */
  accepted(n?: number): void;
  /** The SMSC throttled a submit_sm; true when the rate was lowered. */
  throttled(): boolean;
  /** The rate the bind settled at, or null while it has never been throttled (it runs at the configured TPS). */
  settled(): number | null;
  /** Throttling answers so far. */
  throttles(): number;
  /**
   * The bind is at the SMSC's pace now, not its own: its throttling holds the rate below the configured TPS (for an
   * unpaced bind: it has throttled it), or a throttling answer came within the last `recentMs` (10 s).
   */
  throttledNow(): boolean;
}

const STEP_MS = 1_000;
const QUIET_STEPS_PER_EXTRA = 5;
const DEMAND_SHARE = 0.8;

export function createRateController(options: RateControllerOptions): RateController {
  const now = options.now ?? (() => performance.now());
  const ceiling = options.ceiling > 0 && Number.isFinite(options.ceiling) ? options.ceiling : Infinity;
  const decrease = options.decrease ?? 0.9;
  const floor = Math.min(options.floor ?? 1, ceiling);
  const holdMs = options.holdMs ?? 1_000;
  const recentMs = options.recentMs ?? 10_000;
  // One step is 1% of the configured TPS, at least one submit per second.
  const step = Number.isFinite(ceiling) ? Math.max(1, ceiling / 100) : 1;

  let rate = ceiling;
  let learnt = false;
  let throttleCount = 0;
  let lastThrottleAt = -Infinity;
  let lastDecreaseAt = -Infinity;
  let stepStartedAt = now();
  let sentThisStep = 0;
  // Accepted submits in the last second, by 100 ms slot.
  const slots = new Array<number>(10).fill(0);
  let slotAt = Math.floor(now() / 100);

  const advanceSlots = (t: number): void => {
    const slot = Math.floor(t / 100);
    for (let s = slotAt + 1; s <= Math.min(slot, slotAt + slots.length); s++) slots[s % slots.length] = 0;
    slotAt = Math.max(slotAt, slot);
  };
  const acceptedLastSecond = (t: number): number => { advanceSlots(t); return slots.reduce((a, b) => a + b, 0); };

  const advance = (t: number): void => {
    // A long idle: nothing to learn from the seconds without demand.
    if (t - stepStartedAt > 10 * STEP_MS) { stepStartedAt = t; sentThisStep = 0; return; }
    while (t - stepStartedAt >= STEP_MS) {
      const quietMs = stepStartedAt + STEP_MS - lastThrottleAt;
      if (rate < ceiling && quietMs >= holdMs && sentThisStep >= DEMAND_SHARE * rate * (STEP_MS / 1000)) {
        const quietSteps = Math.floor(quietMs / STEP_MS);
        rate = Math.min(ceiling, rate + step * (1 + Math.floor(quietSteps / QUIET_STEPS_PER_EXTRA)));
      }
      stepStartedAt += STEP_MS;
      sentThisStep = 0;
    }
  };

  return {
    rate() { advance(now()); return rate; },
    sent(n = 1) { advance(now()); sentThisStep += n; },
    accepted(n = 1) {
      const t = now();
      advanceSlots(t);
      slots[slotAt % slots.length]! += n;
    },
    throttled() {
      const t = now();
      advance(t);
      throttleCount++;
      lastThrottleAt = t;
      if (t - lastDecreaseAt < holdMs) return false;
      const seen = acceptedLastSecond(t);
      const base = Math.min(rate, seen > 0 ? seen : rate);
      rate = Math.max(floor, Number.isFinite(base) ? base * decrease : floor);
      lastDecreaseAt = t;
      learnt = true;
      stepStartedAt = t;
      sentThisStep = 0;
      return true;
    },
    settled() { advance(now()); return learnt ? Math.round(rate * 10) / 10 : null; },
    throttles: () => throttleCount,
    throttledNow() {
      const t = now();
      advance(t);
      return (learnt && rate < ceiling) || t - lastThrottleAt < recentMs;
    },
  };
}
