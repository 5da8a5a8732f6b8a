import type { FastifyInstance, RouteOptions } from 'fastify';
import { errorStatus, type ErrorCode } from '../errors.ts';
import type { RoutePermission } from '../permissions.ts';
import { ErrorBody } from './schemas.ts';

/**
 * The route registry: every route the app registers, with how it is authenticated, the key scope it needs and
 * its contract, recorded as Fastify registers it. Tests walk it (the shared auth suite, the hierarchy matrix, the
 * OpenAPI checks), so a new route cannot be missed; the MCP tools read their scopes from it; and it adds to each
 * route's documented responses the errors every route of its kind can answer plus the codes its contract names.
 */
export type RouteAuth = 'api_key' | 'admin' | 'public';

/**
 * What a route states about itself, beside its schema (`config.contract` in its routes file). The registry
 * documents the statuses of `errors`; tests that call every route of a kind send `sample`. The API reference shows
 * `sample.body` as the request example and `response` as the response example (openapi.ts), and tests hold both to
 * the route's schemas, so an example the app would refuse or could not answer fails a test.
 */
export interface RouteContract {
  /** A request the route accepts: a body and a query (path ids are filled in by the caller). */
  sample?: { body?: Record<string, unknown>; query?: Record<string, string> };
  /** An example of the body the route answers on success (its first documented 2xx status). */
  response?: unknown;
  /** The codes the route's own handler may answer; the ones of its kind (validation, auth, scope) are derived. */
  errors?: ErrorCode[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    contract?: RouteContract;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  auth: RouteAuth;
  /**
   * The permission an API-key route needs from a key or a signed-in user ('any': it checks per call, as /mcp does
   * per tool). route-policy.txt lists every one; a test holds the two equal.
   */
  scope: RoutePermission | 'any' | null;
  contract: RouteContract;
  /** Its body schema, if it takes a body (tests check the contract's sample against it). */
  body?: object;
  /** Its response schemas by status, errors included once derived (tests check the contract's response against them). */
  response?: Record<number, unknown>;
  /** Every code the route may answer: the ones of its kind (derived) and its contract's. */
  codes: ErrorCode[];
  /** Documented statuses (after derivation). */
  statuses: number[];
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const isWrite = (methods: string[]) => methods.some((m) => m !== 'GET');
// The entries of a route, on its options object: later (scoped) onRoute hooks see the same object.
const ENTRIES = Symbol('route registry entries');
const TABLE = 'routeRegistry';
type Route = RouteOptions & { [ENTRIES]?: RouteEntry[] };
type RouteSchema = Record<string, unknown> & { hide?: boolean; response?: Record<number, unknown>; security?: unknown[] };

/**
 * Adds the derived error responses to a route that states a contract: the JSON routes do (route-registry.test.ts
 * holds every keyed and operator route to it); pages answer HTML, and /mcp JSON-RPC, and state none.
 */
function document(route: Route, codes: ErrorCode[]): void {
  const response = (route.schema as RouteSchema | undefined)?.response;
  if (!response || !route.config?.contract) return;
  for (const code of codes) response[errorStatus[code]] ??= ErrorBody;
  for (const entry of route[ENTRIES] ?? []) {
    entry.codes = [...new Set([...entry.codes, ...codes])];
    entry.statuses = Object.keys(response).map(Number);
  }
}

/** The errors any route of this kind may answer, whatever its handler does, and the ones its contract names. */
function derivedErrors(methods: string[], auth: RouteAuth, contract: RouteContract): ErrorCode[] {
  // The input guard (errors.ts guardInput) refuses bad characters in any route's params, query or body, so every
  // route can answer 400 validation_failed, whether or not its schema declares input.
  const codes: ErrorCode[] = ['validation_failed'];
  // The body parser runs on every body-carrying route: bad JSON, too large, not JSON.
  if (methods.some((m) => BODY_METHODS.has(m))) codes.push('invalid_json', 'payload_too_large', 'unsupported_media_type');
  // The operator token: wrong or missing (401), the operator API disabled (403); a console session's write without
  // its CSRF token (403).
  if (auth === 'admin') codes.push('unauthorized', 'forbidden', ...(isWrite(methods) ? ['csrf_failed' as const] : []));
  return [...codes, ...(contract.errors ?? [])];
}

/** Records every route of `app` (and its plugins) and derives its documented errors. Call before registering routes. */
export function registerRouteRegistry(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  // A decoration, so plugins (encapsulated child instances) read the same table: /mcp looks its tools' scopes up.
  app.decorate(TABLE, table);
  app.addHook('onRoute', (route: Route) => {
    const schema = (route.schema ?? {}) as RouteSchema;
    if (schema.hide) return;
    const methods = [route.method].flat().map(String).filter((m) => m !== 'HEAD');
    if (methods.length === 0) return;
    const auth: RouteAuth = Array.isArray(schema.security) && JSON.stringify(schema.security).includes('adminToken') ? 'admin' : 'public';
    const contract = route.config?.contract ?? {};
    const body = schema.body as object | undefined;
    const response = schema.response;
    const entries = methods.map((method) => ({ method, url: route.url, auth, scope: null, contract, body, response, codes: [] as ErrorCode[], statuses: [] as number[] }));
    route[ENTRIES] = entries;
    table.push(...entries);
    document(route, derivedErrors(methods, auth, contract));
  });
}

/**
 * Marks every route registered in this scope from now on as needing an API key or a session with the permission it
 * declares (`config.scope`), and documents what requireApiKey (auth.ts) answers before the handler: 401, 429 and,
 * for a route with a permission, 403 `insufficient_scope` (a key) or `permission_denied` (a user); a write is
 * refused 403 for a suspended account or a session without its CSRF token.
 */
export function markApiKeyRoutes(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route: Route) => {
    const needed = route.config?.scope ?? null;
    for (const entry of route[ENTRIES] ?? []) Object.assign(entry, { auth: 'api_key', scope: needed });
    const methods = [route.method].flat().map(String);
    document(route, [
      'unauthorized', 'rate_limited', 'concurrency_limited',
      ...(needed && needed !== 'any' ? ['insufficient_scope' as const, 'permission_denied' as const] : []),
      ...(isWrite(methods.filter((m) => m !== 'HEAD')) ? ['forbidden' as const, 'csrf_failed' as const] : []),
      // A signed-in user's own route refuses a key (403 forbidden).
      ...(needed === 'self' ? ['forbidden' as const] : []),
    ]);
  });
}

/** The routes `app` registered (in registration order). */
export function routesOf(app: FastifyInstance): RouteEntry[] {
  return (app as unknown as Record<typeof TABLE, RouteEntry[] | undefined>)[TABLE] ?? [];
}

/** The permission of the API-key route `method url` (Fastify's url form, `:id`), or null if there is none. */
export function scopeOf(app: FastifyInstance, method: string, url: string): RoutePermission | 'any' | null {
  return routesOf(app).find((r) => r.method === method && r.url === url && r.auth === 'api_key')?.scope ?? null;
}
