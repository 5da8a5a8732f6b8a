// The binds of one carrier: N connections to one SMSC that share its messages. Each bind is a bind_transceiver,
// or a bind_transmitter (submits) with a bind_receiver beside it (receipts and inbound). Every bind has its own
// window and its own TPS token bucket, so the carrier's limits are per bind exactly as the SMSC counts them.
// A message goes to the bound bind with the most room in its window, where an accepted submit keeps its slot until
// the dispatcher has recorded its id (decision 0067): the binds stay evenly loaded, and a bind that slows down is
// given less.
import { createSmppClient, type SmppClient, type SmppClientOptions } from './client.ts';

export type BindMode = 'transceiver' | 'transmitter_receiver';

export interface BindStatus {
  /** 0-based; stored with every id the bind's submits got. */
  index: number;
  state: 'bound' | 'connecting' | 'down';
  /** Why the last session ended or the last bind failed (null while bound after a clean start). */
  lastError: string | null;
  /** submit_sm sent and not yet answered. */
  inFlight: number;
  /** Messages handed to this bind and not yet answered (in flight, or waiting for a token or window slot). */
  pending: number;
  /** Accepted submit_sm per second over the last 10 s. */
  submitsPerSecond: number;
  submitted: number;
  errors: number;
  /** The submits per second this bind runs at: the configured TPS until the SMSC throttles, then the rate it settled at (rate-controller.ts); null when unpaced. */
  tps: number | null;
  /** Throttling answers (ESME_RTHROTTLED, ESME_RMSGQFUL) since the process started; each throttled submit went again. */
  throttled: number;
  /** It runs at the SMSC's pace now (tps), not its own: held below its TPS by throttling, or throttled within the last 10 s. */
  throttledNow: boolean;
  /** With separate transmitter and receiver: the receiver's state. */
  receiver?: 'bound' | 'connecting' | 'down';
}

const RATE_WINDOW_S = 10;

/** Accepted submits per second over a sliding window of whole seconds. */
function createRate(now: () => number = Date.now) {
  const counts = new Array<number>(RATE_WINDOW_S).fill(0);
  let second = Math.floor(now() / 1000);
  const advance = () => {
    const current = Math.floor(now() / 1000);
    for (let s = second + 1; s <= Math.min(current, second + RATE_WINDOW_S); s++) counts[s % RATE_WINDOW_S] = 0;
    second = Math.max(second, current);
  };
  return {
    add(n: number) { advance(); counts[second % RATE_WINDOW_S]! += n; },
    perSecond() { advance(); return counts.reduce((a, b) => a + b, 0) / RATE_WINDOW_S; },
  };
}

export interface Bind {
  index: number;
  client: SmppClient;
  receiver: SmppClient | undefined;
  pending: number;
  /**
   * submit_sm slots taken: segments waiting or in flight, plus accepted segments whose ids are not yet committed
   * (the dispatcher's `sent` write). Never more than the window: a crash resends at most that many (decision 0067).
   */
  held: number;
  submitted: number;
  errors: number;
  rate: ReturnType<typeof createRate>;
}

const stateOf = (c: SmppClient): BindStatus['state'] => {
  const s = c.state();
  return s.bound ? 'bound' : s.lastError === null ? 'connecting' : 'down';
};

export function createBindPool(options: SmppClientOptions & { binds?: number; bindMode?: BindMode }) {
  const count = Math.max(1, options.binds ?? 1);
  const split = options.bindMode === 'transmitter_receiver';
  const binds: Bind[] = Array.from({ length: count }, (_, index) => ({
    index,
    client: createSmppClient({ ...options, bind: split ? 'bind_transmitter' : 'bind_transceiver' }),
    receiver: split ? createSmppClient({ ...options, bind: 'bind_receiver' }) : undefined,
    pending: 0, held: 0, submitted: 0, errors: 0, rate: createRate(),
  }));
  const window = Math.max(1, options.window);
  let freed: Array<() => void> = [];
  const fits = (b: Bind, need: number) => b.held === 0 || b.held + need <= window;
  const clients = binds.flatMap((b) => (b.receiver ? [b.client, b.receiver] : [b.client]));

  return {
    binds,
    /** The bound bind with the fewest pending submits; when none is bound, the least loaded (it waits for a bind). */
    pick(): Bind {
      let best: Bind | undefined;
      for (const b of binds) {
        if (!b.client.state().bound) continue;
        if (!best || b.pending < best.pending) best = b;
      }
      return best ?? binds.reduce((a, b) => (b.pending < a.pending ? b : a));
    },
    /**
     * A bind with room for `need` submit_sm in its window, counting accepted submits not yet recorded (held): the
     * bound bind with the most room; it waits while every bound bind is full. With no bind bound, the least held
     * (its submit then waits for a bind, or fails as not bound). The slots are taken; `free` gives them back.
     */
    async acquire(need: number): Promise<Bind> {
      for (;;) {
        let best: Bind | undefined;
        let anyBound = false;
        for (const b of binds) {
          if (!b.client.state().bound) continue;
          anyBound = true;
          if (fits(b, need) && (!best || b.held < best.held)) best = b;
        }
        if (!anyBound) best = binds.reduce((a, b) => (b.held < a.held ? b : a));
        if (best) {
          best.held += need;
          return best;
        }
        await new Promise<void>((resolve) => { freed.push(resolve); });
      }
    },
    /** Gives back window slots taken by acquire (refused submits at once, accepted ones once recorded). */
    free(bind: Bind, n: number): void {
      if (n <= 0) return;
      bind.held = Math.max(0, bind.held - n);
      const waiting = freed;
      freed = [];
      for (const wake of waiting) wake();
    },
    async start(waitMs?: number) { await Promise.all(clients.map((c) => c.start(waitMs))); },
    async stop() { await Promise.all(clients.map((c) => c.stop())); },
    bound: () => binds.some((b) => b.client.state().bound),
    status: (): BindStatus[] => binds.map((b) => ({
      index: b.index, state: stateOf(b.client), lastError: b.client.state().lastError, inFlight: b.client.state().inFlight,
      pending: b.pending, submitsPerSecond: b.rate.perSecond(), submitted: b.submitted, errors: b.errors,
      tps: b.client.state().tps, throttled: b.client.state().throttled, throttledNow: b.client.state().throttledNow,
      ...(b.receiver ? { receiver: stateOf(b.receiver) } : {}),
    })),
    health() {
      const states = binds.map((b) => b.client.state());
      return {
        connected: states.some((s) => s.connected),
        bound: states.some((s) => s.bound),
        inFlight: states.reduce((n, s) => n + s.inFlight, 0),
        lastError: states.find((s) => s.lastError !== null)?.lastError ?? null,
      };
    },
  };
}

export type BindPool = ReturnType<typeof createBindPool>;
