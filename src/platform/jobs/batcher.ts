/**
 * The write-behind batcher (group commit): the one way Tasman turns many small writes into few statements (the
 * send path, key lookups, the dispatcher's `sent` writes, receipts, webhook outcomes; see README.md). Requests
 * that arrive while earlier batches are in flight wait and go together in the next statement, so under load one round trip (one commit) serves many requests, and when idle a request goes at
 * once, alone, with no added latency. There is no timer: batches form only from requests already waiting.
 *
 * `key` keeps items that must not share a statement apart (for sends: two debits of one account), deferring the
 * later one to a following batch. `run` answers each item in order; an item whose answer is an Error rejects
 * alone. If `run` throws, `retry` decides: run the same batch again after a delay, or give up, and then every
 * item of that batch rejects with the error.
 */
export interface BatcherOptions<I, O> {
  run(items: I[]): Promise<Array<O | Error>>;
  /** Items with the same key never share a batch. */
  key?: (item: I) => string;
  /** Largest batch (bounded by the statement size). */
  maxSize: number;
  /** Batches in flight at once (bounded by the connection pool). */
  maxConcurrent: number;
  /**
   * With a batch in flight, another opens only once every batch in flight has run at least this long (ms). So
   * batches normally go one at a time (larger, so fewer statements), and a further slot opens only for a batch
   * that is slow (say, waiting on a row lock), so that one slow batch does not hold up everything queued behind
   * it. Without it, up to `maxConcurrent` batches open at once.
   */
  openAfterMs?: number;
  /**
   * Called when `run` throws, with the failures of this batch so far counted from 0: the delay in ms before the
   * same batch runs again, or null to give up. The batch keeps its slot while it waits (later items queue
   * behind it, and `idle()` waits for it). Without `retry`, a throw rejects the batch at once.
   */
  retry?(err: unknown, attempt: number): number | null;
}

interface Pending<I, O> {
  item: I;
  resolve(value: O): void;
  reject(reason: unknown): void;
}

export function createBatcher<I, O>(options: BatcherOptions<I, O>) {
  const queue: Array<Pending<I, O>> = [];
  let inFlight = 0;
  const idleWaiters: Array<() => void> = [];
  // When each batch in flight started (openAfterMs), and the pump's timer for the next slot to open.
  const started = new Set<{ at: number }>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let timerAt = Infinity;

  function take(): Array<Pending<I, O>> {
    if (!options.key) return queue.splice(0, options.maxSize);
    const batch: Array<Pending<I, O>> = [];
    const keys = new Set<string>();
    for (let i = 0; i < queue.length && batch.length < options.maxSize;) {
      const k = options.key(queue[i]!.item);
      if (keys.has(k)) { i += 1; continue; }
      keys.add(k);
      batch.push(queue.splice(i, 1)[0]!);
    }
    return batch;
  }

  async function runBatch(batch: Array<Pending<I, O>>): Promise<void> {
    const start = { at: performance.now() };
    started.add(start);
    const items = batch.map((p) => p.item);
    let answers: Array<O | Error> | null = null;
    let failure: unknown = null;
    for (let attempt = 0; answers === null && failure === null; attempt++) {
      try {
        answers = await options.run(items);
      } catch (err) {
        let delay: number | null = null;
        try {
          delay = options.retry ? options.retry(err, attempt) : null;
        } catch { /* a throwing retry policy gives up */ }
        if (delay === null) failure = err;
        else await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    // The slot is free before anyone hears back, so `load` is exact when a caller resumes.
    inFlight -= 1;
    started.delete(start);
    batch.forEach((p, i) => {
      const answer = answers?.[i];
      if (failure !== null) p.reject(failure);
      else if (answer instanceof Error) p.reject(answer);
      else if (answer === undefined) p.reject(new Error('batch returned no answer for an item'));
      else p.resolve(answer);
    });
    pump();
  }

  /** ms until another batch may open beside those in flight (openAfterMs): 0 when one may open now. */
  function untilOpen(): number {
    if (options.openAfterMs === undefined || inFlight === 0) return 0;
    let youngest = -Infinity;
    for (const s of started) youngest = Math.max(youngest, s.at);
    return Math.max(0, youngest + options.openAfterMs - performance.now());
  }

  function wakeAfter(ms: number): void {
    const at = performance.now() + ms;
    if (timer !== null && timerAt <= at) return;
    if (timer !== null) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => { timer = null; timerAt = Infinity; pump(); }, ms);
  }

  function pump(): void {
    while (inFlight < options.maxConcurrent && queue.length > 0) {
      const wait = untilOpen();
      if (wait > 0) { wakeAfter(wait); break; }
      const batch = take();
      inFlight += 1;
      void runBatch(batch);
    }
    if (queue.length === 0 && timer !== null) { clearTimeout(timer); timer = null; timerAt = Infinity; }
    if (inFlight === 0 && queue.length === 0) for (const fn of idleWaiters.splice(0)) fn();
  }

  return {
    submit(item: I): Promise<O> {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        pump();
      });
    },
    /**
     * `submit` for several items at once: they are queued together before any batch starts, so items that arrive
     * together go together (a lone `submit` per item would start a batch with the first one alone).
     */
    submitAll(items: I[]): Array<Promise<O>> {
      const answers = items.map((item) => new Promise<O>((resolve, reject) => { queue.push({ item, resolve, reject }); }));
      pump();
      return answers;
    },
    /** Resolves once nothing waits and no batch runs (for a graceful stop). */
    idle(): Promise<void> {
      if (inFlight === 0 && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => { idleWaiters.push(resolve); });
    },
    /** Items waiting plus batches running: zero when idle. */
    get load(): number {
      return queue.length + inFlight;
    },
  };
}
