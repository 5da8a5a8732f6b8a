import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the gauges read when Prometheus scrapes: queue sizes from the database, carrier sessions from the link. */
export interface MetricSources {
  queues(): Promise<Array<{ queue: string; depth: number; oldestSeconds: number }>>;
  carriers(): Array<{ name: string; bound: boolean }>;
  /** Every bind of every carrier of this process (several per carrier with TASMAN_CARRIERS). */
  binds?(): Array<{ carrier: string; bind: number; bound: boolean; inFlight: number; submitsPerSecond: number; errors: number; tps: number | null; throttled: number; throttledNow: boolean }>;
  /** Sent messages without a final receipt, by carrier and bind (from the database). */
  receiptsWaiting?(): Promise<Array<{ carrier: string; bind: number | null; waiting: number }>>;
  /** Parked receipts no message holds after a minute, by carrier (from the database). */
  receiptsUnmatched?(): Promise<Array<{ carrier: string; count: number; oldestSeconds: number }>>;
  /** Receipts whose id matched several messages under its readings, by carrier (this process). */
  receiptIdConflicts?(): Array<{ carrier: string; conflicts: number }>;
  /** Resolves when the database answers a trivial query; rejects when it does not. */
  database?(): Promise<unknown>;
  /** Customers' SMPP binds and queued deliveries, by account (from the database: every instance's). */
  smppServer?(): Promise<Array<{ account: string; binds: number; queued: number }>>;
}

/**
 * The process's Prometheus metrics (GET /metrics). One registry per composition, not prom-client's global one,
 * so several apps in one process (tests) do not collide. Under `tasman start` with TASMAN_WORKERS ≥ 1, `render`
 * asks the primary, which adds up every process's registry (gauges read from the shared database take the
 * largest, not the sum); separate instances are separate scrape targets, summed in Prometheus.
 */
const UNKNOWN_KEY_ADDRESSES = 1000;

export function createMetrics(options: { render?: () => Promise<string> } = {}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let sources: MetricSources | null = null;

  const unknownKeys = new Counter({
    name: 'tasman_auth_unknown_keys_total', help: 'Requests with an unknown or revoked API key, by source address (the first 1,000 addresses; the rest as "other")',
    labelNames: ['address'], registers,
  });
  const unknownKeyAddresses = new Set<string>();
  const metrics = {
    registry,
    /** The text GET /metrics answers: this registry, or the whole cluster's. */
    render: options.render ?? (() => registry.metrics()),
    httpRequests: new Counter({ name: 'tasman_http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames: ['route', 'status'], registers }),
    httpDuration: new Histogram({
      name: 'tasman_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route pattern', labelNames: ['route'], registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
    accepted: new Counter({ name: 'tasman_messages_accepted_total', help: 'Messages accepted (queued) by /send and /send-batch', registers }),
    submitted: new Counter({ name: 'tasman_messages_submitted_total', help: 'Messages the SMSC accepted (submit_sm_resp OK)', registers }),
    receipts: new Counter({ name: 'tasman_receipts_total', help: 'Delivery receipts received, by status', labelNames: ['status'], registers }),
    smppServerPdus: new Counter({ name: 'tasman_smpp_server_pdus_total', help: 'PDUs on customers\' SMPP binds, by direction (in, out)', labelNames: ['direction'], registers }),
    webhookDeliveries: new Counter({ name: 'tasman_webhook_deliveries_total', help: 'Webhook delivery attempts, by result (delivered, retry, failed)', labelNames: ['result'], registers }),
    /** Set by the workers' periodic ledger check (compose-workers.ts); 0 until it has run. */
    ledgerMismatch: new Gauge({
      name: 'tasman_credit_ledger_mismatched_accounts', help: 'Accounts whose balance differs from the sum of their credit ledger, at the last check',
      registers, aggregator: 'max',
    }),
    /** Counts a request with an unknown or revoked API key from this address (tasman_auth_unknown_keys_total). */
    unknownKey(address: string) {
      // A label per address, up to a bound, so requests from ever new addresses cannot grow the registry forever.
      const label = unknownKeyAddresses.has(address) || unknownKeyAddresses.size < UNKNOWN_KEY_ADDRESSES ? address : 'other';
      unknownKeyAddresses.add(label);
      unknownKeys.inc({ address: label });
    },
    /** Where the scrape-time gauges read from; set once the database and the carrier link exist. */
    watch(s: MetricSources) { sources = s; },
  };

  // Both queue gauges come from one query per scrape: the registry reads its metrics concurrently.
  let snapshot: Promise<Awaited<ReturnType<MetricSources['queues']>>> | null = null;
  const queues = () => {
    // A database that does not answer leaves these gauges out instead of failing the scrape (tasman_database_up).
    snapshot ??= (sources ? sources.queues() : Promise.resolve([])).catch(() => []).finally(() => { setImmediate(() => { snapshot = null; }); });
    return snapshot;
  };
  new Gauge({
    name: 'tasman_queue_depth', help: 'Rows waiting, by queue', labelNames: ['queue'], registers, aggregator: 'max',
    async collect() { for (const q of await queues()) this.set({ queue: q.queue }, q.depth); },
  });
  new Gauge({
    name: 'tasman_queue_oldest_age_seconds', help: 'Age of the oldest waiting row, by queue', labelNames: ['queue'], registers, aggregator: 'max',
    async collect() { for (const q of await queues()) this.set({ queue: q.queue }, q.oldestSeconds); },
  });
  new Gauge({
    name: 'tasman_database_up', help: '1 when the database answered a trivial query at this scrape', registers, aggregator: 'min',
    async collect() { this.set(sources?.database ? await sources.database().then(() => 1, () => 0) : 1); },
  });
  new Gauge({
    name: 'tasman_smpp_bind_up', help: '1 when the SMPP session to the carrier is bound', labelNames: ['carrier'], registers, aggregator: 'max',
    collect() {
      for (const c of sources?.carriers() ?? []) this.set({ carrier: c.name }, c.bound ? 1 : 0);
    },
  });
  const perBind = (name: string, help: string, value: (b: NonNullable<ReturnType<NonNullable<MetricSources['binds']>>>[number]) => number) => new Gauge({
    name, help, labelNames: ['carrier', 'bind'], registers,
    collect() {
      for (const b of sources?.binds?.() ?? []) this.set({ carrier: b.carrier, bind: String(b.bind) }, value(b));
    },
  });
  new Gauge({
    name: 'tasman_carrier_receipts_waiting', help: 'Sent messages without a final receipt, by carrier and bind', labelNames: ['carrier', 'bind'], registers, aggregator: 'max',
    async collect() {
      this.reset();
      for (const r of (await sources?.receiptsWaiting?.().catch(() => [])) ?? []) this.set({ carrier: r.carrier, bind: r.bind === null ? '' : String(r.bind) }, r.waiting);
    },
  });
  // One query per scrape for both gauges, as the queue gauges.
  let unmatched: ReturnType<NonNullable<MetricSources['receiptsUnmatched']>> | null = null;
  const readUnmatched = () => {
    unmatched ??= (sources?.receiptsUnmatched?.() ?? Promise.resolve([])).catch(() => []).finally(() => { setImmediate(() => { unmatched = null; }); });
    return unmatched;
  };
  new Gauge({
    name: 'tasman_receipts_unmatched', help: 'Parked receipts no message holds after a minute (deleted after PARKED_RECEIPT_MAX_AGE_HOURS), by carrier', labelNames: ['carrier'], registers, aggregator: 'max',
    async collect() { this.reset(); for (const r of await readUnmatched()) this.set({ carrier: r.carrier }, r.count); },
  });
  new Gauge({
    name: 'tasman_receipts_unmatched_oldest_age_seconds', help: 'Age of the oldest parked receipt no message holds, by carrier', labelNames: ['carrier'], registers, aggregator: 'max',
    async collect() { this.reset(); for (const r of await readUnmatched()) this.set({ carrier: r.carrier }, r.oldestSeconds); },
  });
  new Gauge({
    name: 'tasman_receipt_id_conflicts', help: 'Receipts since start whose id matched several messages as hex and as decimal (none applied), by carrier', labelNames: ['carrier'], registers,
    collect() { for (const c of sources?.receiptIdConflicts?.() ?? []) this.set({ carrier: c.carrier }, c.conflicts); },
  });
  let smpp: ReturnType<NonNullable<MetricSources['smppServer']>> | null = null;
  const readSmpp = () => {
    smpp ??= (sources?.smppServer?.() ?? Promise.resolve([])).catch(() => []).finally(() => { setImmediate(() => { smpp = null; }); });
    return smpp;
  };
  new Gauge({
    name: 'tasman_smpp_server_binds', help: 'Customers\' SMPP binds open on every instance, by account', labelNames: ['account'], registers, aggregator: 'max',
    async collect() { this.reset(); for (const r of await readSmpp()) this.set({ account: r.account }, r.binds); },
  });
  new Gauge({
    name: 'tasman_smpp_server_queued', help: 'Receipts and inbound messages waiting for a customer\'s receiving SMPP bind, by account', labelNames: ['account'], registers, aggregator: 'max',
    async collect() { this.reset(); for (const r of await readSmpp()) this.set({ account: r.account }, r.queued); },
  });
  perBind('tasman_carrier_bind_up', '1 when this bind of the carrier is bound', (b) => (b.bound ? 1 : 0));
  perBind('tasman_carrier_bind_in_flight', 'submit_sm sent on this bind and not yet answered', (b) => b.inFlight);
  perBind('tasman_carrier_bind_submits_per_second', 'accepted submit_sm per second on this bind over the last 10 s', (b) => b.submitsPerSecond);
  perBind('tasman_carrier_bind_errors', 'failed submits on this bind since the process started', (b) => b.errors);
  perBind('tasman_carrier_bind_tps', 'submits per second this bind runs at: the configured TPS until the SMSC throttles, then the rate it settled at (0: unpaced)', (b) => b.tps ?? 0);
  perBind('tasman_carrier_bind_throttled', 'throttling answers on this bind since the process started (each throttled submit went again)', (b) => b.throttled);
  perBind('tasman_carrier_bind_throttled_now', '1 while this bind runs at the SMSC\'s pace: held below its TPS by throttling, or throttled within the last 10 s', (b) => (b.throttledNow ? 1 : 0));
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
