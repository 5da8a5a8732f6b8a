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
import type { CarrierConfig, CarriersConfig } from './carriers-config.ts';

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
  /**
   * Switches to another configuration (already checked): carriers whose settings are unchanged keep their binds;
   * new and changed ones bind, and the routes switch, before a changed or removed carrier is drained (taken out of
   * routing, its submits in flight answered, then unbound). Reloads run one at a time.
   */
  reload(next: CarriersConfig): Promise<CarrierReload>;
}

/** What a reload did, by carrier id. */
export interface CarrierReload { added: string[]; changed: string[]; removed: string[]; unchanged: string[] }

interface Entry { config: CarrierConfig; link: SmppCarrier }

export function createCarrierSet(options: { carriers: CarrierConfig[]; routes: RouteRule[]; build: (config: CarrierConfig) => SmppCarrier }): CarrierSet {
  let entries: Entry[] = options.carriers.map((config) => ({ config, link: options.build(config) }));
  let byId = new Map(entries.map((e) => [e.config.id, e.link]));
  let routes = options.routes;
  let handlers: CarrierHandlers | null = null;
  let reloading: Promise<unknown> = Promise.resolve();
  const links = () => entries.map((e) => e.link);

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
    const carriers = links().map((c) => c.status());
    const bound = new Set(carriers.filter((c) => c.state === 'bound').map((c) => c.id));
    const unservedCountries = [...routedCountries(routes)].filter(([, ids]) => !ids.some((id) => bound.has(id))).map(([c]) => c);
    return { carriers, routes, unservedCountries };
  };

  return {
    async start(given: CarrierHandlers) {
      handlers = given;
      await Promise.all(links().map((c) => c.start(given)));
    },
    submit,
    health(): CarrierHealth {
      const all = links().map((c) => c.health());
      return {
        connected: all.some((h) => h.connected),
        bound: all.some((h) => h.bound),
        inFlight: all.reduce((n, h) => n + h.inFlight, 0),
        lastError: all.find((h) => h.lastError !== null)?.lastError ?? null,
      };
    },
    async stop() {
      await reloading.catch(() => {});
      await Promise.all(links().map((c) => c.stop()));
    },
    capacity: () => entries.reduce((n, e) => n + e.config.binds * e.config.window, 0),
    view,
    routes: () => routes,
    setRoutes(next) { routes = next; },
    ids: () => [...byId.keys()],
    queryPlans: () => links().flatMap((c) => (c.querySm ? [{ carrier: c.name, ...c.querySm }] : [])),
    async queryReceipt(carrier, ref) {
      const link = byId.get(carrier);
      if (!link?.querySm) return { outcome: 'error', error: `carrier ${carrier} does not answer query_sm` };
      return link.queryReceipt(ref);
    },
    reload(next) {
      const run = reloading.catch(() => {}).then(() => swap(next));
      reloading = run;
      return run;
    },
  };

  async function swap(next: CarriersConfig): Promise<CarrierReload> {
    const before = new Map(entries.map((e) => [e.config.id, e]));
    // Settings compared whole (a password from the environment included): any difference binds afresh.
    const same = (a: CarrierConfig, b: CarrierConfig) => JSON.stringify(a) === JSON.stringify(b);
    const nextEntries = next.carriers.map((config): Entry => {
      const old = before.get(config.id);
      return old && same(old.config, config) ? old : { config, link: options.build(config) };
    });
    const fresh = nextEntries.filter((e) => before.get(e.config.id) !== e);
    const retired = entries.filter((e) => !nextEntries.includes(e));
    if (handlers) await Promise.all(fresh.map((e) => e.link.start(handlers!)));
    entries = nextEntries;
    byId = new Map(entries.map((e) => [e.config.id, e.link]));
    routes = next.routes;
    // Out of routing from here on; stop() waits for the submits in flight on its binds, then unbinds.
    await Promise.all(retired.map((e) => e.link.stop()));
    return {
      added: fresh.filter((e) => !before.has(e.config.id)).map((e) => e.config.id),
      changed: fresh.filter((e) => before.has(e.config.id)).map((e) => e.config.id),
      removed: retired.filter((e) => !byId.has(e.config.id)).map((e) => e.config.id),
      unchanged: nextEntries.filter((e) => !fresh.includes(e)).map((e) => e.config.id),
    };
  }
}
