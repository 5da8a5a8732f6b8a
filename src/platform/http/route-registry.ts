import type { FastifyInstance, RouteOptions } from 'fastify';
import { errorStatus, type ErrorCode } from '../errors.ts';
import { ErrorBody } from './schemas.ts';

/**
 * The route registry: every route the app registers, with how it is authenticated, recorded as Fastify registers
 * it. Tests walk it (test/api/route-registry.test.ts: the auth rules and the documented errors hold on every
 * route, so a new route cannot be missed), and it adds to each route's documented responses the errors every
 * route of its kind can answer, derived from the error-code union: a route declares only its own.
 */
export type RouteAuth = 'api_key' | 'admin' | 'public';

export interface RouteEntry {
  method: string;
  url: string;
  auth: RouteAuth;
  /** Documented statuses (after derivation). */
  statuses: number[];
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const tables = new WeakMap<FastifyInstance, RouteEntry[]>();
// The entries of a route, on its options object: later (scoped) onRoute hooks see the same object.
const ENTRIES = Symbol('route registry entries');
type Route = RouteOptions & { [ENTRIES]?: RouteEntry[] };
type RouteSchema = Record<string, unknown> & { hide?: boolean; response?: Record<number, unknown>; security?: unknown[] };

/** Adds the derived error responses to a route that answers errors as JSON bodies (pages answer HTML). */
function document(route: Route, codes: ErrorCode[]): void {
  const response = (route.schema as RouteSchema | undefined)?.response;
  if (!response || !Object.values(response).includes(ErrorBody)) return;
  for (const code of codes) response[errorStatus[code]] ??= ErrorBody;
  for (const entry of route[ENTRIES] ?? []) entry.statuses = Object.keys(response).map(Number);
}

/** The errors any route of this kind may answer, whatever its handler does. */
function derivedErrors(methods: string[], auth: RouteAuth, schema: Record<string, unknown>): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (schema.body || schema.querystring || schema.params) codes.push('validation_failed');
  // The body parser runs on every body-carrying route: bad JSON, too large, not JSON.
  if (methods.some((m) => BODY_METHODS.has(m))) codes.push('invalid_json', 'payload_too_large', 'unsupported_media_type');
  if (auth === 'admin') codes.push('unauthorized');
  return codes;
}

/** Records every route of `app` (and its plugins) and derives its documented errors. Call before registering routes. */
export function registerRouteRegistry(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route: Route) => {
    const schema = (route.schema ?? {}) as RouteSchema;
    if (schema.hide) return;
    const methods = [route.method].flat().map(String).filter((m) => m !== 'HEAD');
    if (methods.length === 0) return;
    const auth: RouteAuth = Array.isArray(schema.security) && JSON.stringify(schema.security).includes('adminToken') ? 'admin' : 'public';
    const entries = methods.map((method) => ({ method, url: route.url, auth, statuses: [] as number[] }));
    route[ENTRIES] = entries;
    table.push(...entries);
    document(route, derivedErrors(methods, auth, schema));
  });
}

/** Marks every route registered in this scope from now on as needing an API key (and documents 401, 429). */
export function markApiKeyRoutes(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route: Route) => {
    for (const entry of route[ENTRIES] ?? []) entry.auth = 'api_key';
    document(route, ['unauthorized', 'rate_limited']);
  });
}

/** The routes `app` registered (in registration order). */
export function routesOf(app: FastifyInstance): RouteEntry[] {
  return tables.get(app) ?? [];
}
