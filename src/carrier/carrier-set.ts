// Several carriers behind the one Carrier port: each message is routed (routes.ts) to the first of its route's
// carriers that is available, so the dispatcher neither knows nor cares how many SMSCs there are. Failover is
// that choice: a carrier with no bind up, or refusing with system errors for longer than its failoverAfterMs,
// is passed over, and once it is back new messages go to it again. A submit is never accepted by two carriers:
// only a carrier that did not take it (not bound, or refused with ESME_RSYSERR) is followed by the next; every
// other failure goes back to the dispatcher, whose retry routes afresh. A carrier refusing with system errors is sent one trial
// message every failoverAfterMs (smpp-carrier.ts routable), so its recovery is seen.
import type { Carrier, CarrierHandlers, CarrierHealth, SubmitRequest, SubmitResult } from './carrier.ts';
import { chooseRoute, routedCountries, type RouteRule } from './routes.ts';
import type { CarrierStatus, QueryOutcome, SmppCarrier } from './smpp/smpp-carrier.ts';

/** A carrier whose SMSC answers query_sm: its messages without a receipt after `afterMs` are queried. */
export interface QueryPlan { carrier: string; afterMs: number; validityMs: number }

export interface CarrierSetView {
  carriers: CarrierStatus[];
  routes: RouteRule[];
  /** Countries a route names whose carriers are all down (GET /status is degraded then). */
  unservedCountries: string[];
}

export interface CarrierSet extends Carrier {
  /** Submit slots worth keeping busy: every bind's window, summed (the dispatcher's concurrency). */
  capacity(): number;
  view(): CarrierSetView;
  routes(): RouteRule[];
  /** Replaces the routes (already checked against the carriers' ids): new messages follow them at once. */
  setRoutes(routes: RouteRule[]): void;
  ids(): string[];
  /** The carriers that answer query_sm, and when to ask. */
  queryPlans(): QueryPlan[];
  /** query_sm through `carrier` for a message it accepted; a final state is applied as its receipt would be. */
  queryReceipt(carrier: string, ref: { smscMessageId: string; from: string }): Promise<QueryOutcome>;
}

export function createCarrierSet(options: { carriers: SmppCarrier[]; routes: RouteRule[]; capacity: number }): CarrierSet {
  const byId = new Map(options.carriers.map((c) => [c.name, c]));
  let routes = options.routes;

  /** The route's carriers in the order to try: available ones first (in route order), then bound, then the rest. */
  function candidates(request: SubmitRequest): SmppCarrier[] {
    const listed = chooseRoute(routes, { to: request.to, from: request.from, accountId: request.accountId }).carriers
      .map((id) => byId.get(id)).filter((c): c is SmppCarrier => c !== undefined);
    const available = listed.filter((c) => c.routable());
    return available.length > 0 ? available : listed;
  }

  async function submit(request: SubmitRequest): Promise<SubmitResult> {
    const tried = candidates(request);
    let result: SubmitResult | undefined;
    for (const carrier of tried) {
      result = await carrier.submit(request);
      // not_bound: this carrier never had the message; ESME_RSYSERR: its SMSC answered that it did not take it (the
      // carrier may be failing, or this was its trial message). Either way the next may take it without any risk
      // of a duplicate. Any other failure (a lost answer above all) goes back to the queue.
      if (result.ok || result.partial || (result.errorCode !== 'not_bound' && result.errorCode !== 'ESME_RSYSERR')) return result;
    }
    return result ?? { ok: false, permanent: false, errorCode: 'no_route', message: 'no carrier on this message\'s route' };
  }

  const view = (): CarrierSetView => {
    const carriers = options.carriers.map((c) => c.status());
    const bound = new Set(carriers.filter((c) => c.state === 'bound').map((c) => c.id));
    const unservedCountries = [...routedCountries(routes)].filter(([, ids]) => !ids.some((id) => bound.has(id))).map(([c]) => c);
    return { carriers, routes, unservedCountries };
  };

  return {
    async start(handlers: CarrierHandlers) {
      await Promise.all(options.carriers.map((c) => c.start(handlers)));
    },
    submit,
    health(): CarrierHealth {
      const all = options.carriers.map((c) => c.health());
      return {
        connected: all.some((h) => h.connected),
        bound: all.some((h) => h.bound),
        inFlight: all.reduce((n, h) => n + h.inFlight, 0),
        lastError: all.find((h) => h.lastError !== null)?.lastError ?? null,
      };
    },
    async stop() {
      await Promise.all(options.carriers.map((c) => c.stop()));
    },
    capacity: () => options.capacity,
    view,
    routes: () => routes,
    setRoutes(next) { routes = next; },
    ids: () => [...byId.keys()],
    queryPlans: () => options.carriers.flatMap((c) => (c.querySm ? [{ carrier: c.name, ...c.querySm }] : [])),
    async queryReceipt(carrier, ref) {
      const link = byId.get(carrier);
      if (!link?.querySm) return { outcome: 'error', error: `carrier ${carrier} does not answer query_sm` };
      return link.queryReceipt(ref);
    },
  };
}
