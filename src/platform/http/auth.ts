import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Actor } from '../actor.ts';
import { AppError, type ErrorCode } from '../errors.ts';
import { REFUSAL_CODES } from '../audit/entry.ts';
import type { RateLimiter } from './rate-limit/index.ts';
import { authorize, ROUTE_PERMISSIONS, type RoutePermission } from '../permissions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
  interface FastifyContextConfig {
    /**
     * The one permission this route needs, from keys and signed-in users alike (platform/permissions.ts); 'any'
     * for a route that checks per call (/mcp, per tool). Listed in src/platform/http/route-policy.txt.
     */
    scope?: RoutePermission | 'any';
  }
}

export type Authenticate = (token: string) => Promise<Actor | null>;

/** A request refused for what its caller may do, once the caller is known: the audit log records it. */
export type OnRefused = (actor: Actor, refusal: { code: ErrorCode; method: string; route: string }) => Promise<void>;

/** A dashboard session cookie's actor and the CSRF token its writes must carry (modules/sessions). */
export interface SessionAuth {
  cookie: string;
  authenticate(token: string): Promise<{ actor: Actor; csrfToken: string } | null>;
}

export const CSRF_HEADER = 'x-csrf-token';
const isWrite = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);
/** Writes that never change a key or an account's actor: the hot paths keep the cached actors. */
const SEND_ROUTES = new Set(['/send', '/send-batch']);

/**
 * Key look-ups are cached (modules/keys/authenticator.ts): any write other than a send may have revoked a key or
 * changed an account, so the app's cached actors are forgotten before its answer is sent. Other processes hear of
 * it through the database's notification. Added once, on the root app, so it covers every route.
 */
export function forgetActorsAfterWrites(app: FastifyInstance, forget: () => void): void {
  // Callback-style: it runs for every answer, and an async hook costs a promise and a turn of the queue each.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (isWrite(request.method) && !SEND_ROUTES.has(request.routeOptions.url ?? '')) forget();
    done(null, payload);
  });
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  return (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies?.[name];
}

/** Writes through a cookie must echo the session's CSRF token in a header (a cross-site form cannot set one). */
function checkCsrf(request: FastifyRequest, expected: string): void {
  if (!isWrite(request.method)) return;
  const given = request.headers[CSRF_HEADER];
  const ok = typeof given === 'string' && given.length === expected.length
    && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  if (!ok) throw new AppError('csrf_failed', 'Missing or wrong X-CSRF-Token header: reload the page and try again');
}

/**
 * A bearer key, else a dashboard session cookie: one actor either way, so every route keeps one set of rules. A
 * request that carries a key is judged by the key alone.
 */
async function resolveActor(
  request: FastifyRequest, authenticate: Authenticate, sessions: SessionAuth | undefined, onUnknownKey?: (address: string) => void,
): Promise<Actor> {
  const token = bearer(request);
  const cookie = sessions && !request.headers.authorization ? cookieOf(request, sessions.cookie) : undefined;
  if (!token && cookie && sessions) {
    const found = await sessions.authenticate(cookie);
    if (!found) throw new AppError('unauthorized', 'Your session has ended: sign in again');
    checkCsrf(request, found.csrfToken);
    return found.actor;
  }
  if (!token) throw new AppError('unauthorized', 'Missing API key: send Authorization: Bearer <key>');
  const actor = await authenticate(token);
  if (!actor) {
    // Keys are long random secrets: guessing is not the threat, so an unknown key keeps its 401 and is counted.
    onUnknownKey?.(request.ip);
    throw new AppError('unauthorized', 'Invalid or revoked API key');
  }
  return actor;
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Adds the API-key check and the per-key limits to every route registered in `scope`. Key look-ups are cached for
 * a few seconds; a write forgets them in this process before it answers (forgetActorsAfterWrites), so a revoked
 * key fails on its very next request here, and on other instances once the database's notification arrives.
 */
export function requireApiKey(
  scope: FastifyInstance,
  deps: { authenticate: Authenticate; limiter: RateLimiter; sessions?: SessionAuth; onRefused?: OnRefused; onUnknownKey?: (address: string) => void },
): void {
  scope.decorateRequest('actor', null as unknown as Actor);
  // A keyed route without a declared permission would be open to every caller: refuse to build the app instead.
  scope.addHook('onRoute', (route) => {
    const needed = (route.config as { scope?: string } | undefined)?.scope;
    if (!needed) throw new Error(`Route ${String(route.method)} ${route.url} declares no permission (config.scope)`);
    if (needed !== 'any' && !(ROUTE_PERMISSIONS as readonly string[]).includes(needed)) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares an unknown permission "${needed}"`);
    }
  });
  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // A copy per request (the authenticator caches actors): the source address is this request's, for the audit log.
    const actor = { ...await resolveActor(request, deps.authenticate, deps.sessions, deps.onUnknownKey), address: request.ip };
    request.actor = actor;
    // A suspended account (or one whose parent is suspended: the actor carries the subtree's status) may read but
    // not change anything: no sends, sub-accounts, keys, credit moves or invites.
    if (actor.account.accountStatus === 'suspended' && request.method !== 'GET' && request.method !== 'HEAD') {
      throw new AppError('forbidden', 'The account is suspended: it can read but not send, create or change anything');
    }

    // An account that requires a second factor: a signed-in user without one may only enrol (the `self` routes).
    // API keys are not users and are not affected.
    const needed = request.routeOptions.config.scope;
    if (actor.user && !actor.user.twoFactor && actor.account.settings.twoFactorRequired && needed !== 'self') {
      throw new AppError('two_factor_required', 'Your team requires two-factor authentication: set it up on the Security page first');
    }

    const decision = await deps.limiter.acquire(actor.keyId);
    reply.headers(decision.headers);
    if (!decision.allowed) {
      throw decision.reason === 'concurrency'
        ? new AppError('concurrency_limited', 'Too many concurrent requests for this API key')
        : new AppError('rate_limited', 'Too many requests for this API key');
    }
    // 'close' fires when the response has been sent and when the client goes away first: either frees the slot.
    reply.raw.once('close', decision.release);
    // After the limiter: a refused permission is a real request and counts, like every other 4xx but 401. One
    // check for keys and signed-in users alike (403 insufficient_scope for a key, permission_denied for a user).
    if (needed && needed !== 'any') authorize(actor, needed);
  });
  // Refusals here and in the services (a grant beyond the caller's own rights) alike: no transaction exists for a
  // refusal, so this is the one place the audit log is written from a hook (decision 0057).
  const onRefused = deps.onRefused;
  if (onRefused) {
    scope.addHook('onError', async (request, _reply, error) => {
      if (request.actor && error instanceof AppError && REFUSAL_CODES.has(error.code)) {
        await onRefused(request.actor, { code: error.code, method: request.method, route: request.routeOptions.url ?? request.url });
      }
    });
  }
}

/** A named operator (modules/operators): who, beside the bootstrap token, may use the operator API. */
export interface NamedOperator { id: string; name: string }

/** An operator console session: the cookie's name and its check against the current operator token. */
export interface OperatorSessionAuth {
  cookie: string;
  /** The live session's CSRF token, and the named operator it belongs to (null: signed in with the operator token). */
  authenticate(sessionToken: string, operatorToken: string): Promise<{ csrfToken: string; operator: NamedOperator | null } | null>;
  /** Counts a wrong operator token against the source address; the 429 to answer instead beyond the limit. */
  failed?(address: string): Promise<AppError | null>;
  /** A named operator's own token: the live operator holding it, or null. */
  named?(token: string): Promise<NamedOperator | null>;
}

const namedOperators = new WeakMap<FastifyRequest, NamedOperator>();
/** The named operator who made this operator request (their token or console session); undefined for the operator token's. */
export const operatorOf = (request: FastifyRequest): NamedOperator | undefined => namedOperators.get(request);

/**
 * The operator API's bearer token (TASMAN_ADMIN_TOKEN, compared in constant time), a named operator's own token,
 * or an operator console session (with CSRF).
 */
export function requireAdminToken(scope: FastifyInstance, token: string | null, sessions?: OperatorSessionAuth): void {
  const expected = token ? createHash('sha256').update(token).digest() : null;
  scope.addHook('onRequest', async (request: FastifyRequest) => {
    if (!expected || !token) throw new AppError('forbidden', 'The operator API is disabled: set TASMAN_ADMIN_TOKEN');
    const cookie = sessions && !request.headers.authorization ? cookieOf(request, sessions.cookie) : undefined;
    if (cookie && sessions) {
      const found = await sessions.authenticate(cookie, token);
      if (!found) throw new AppError('unauthorized', 'Your operator session has ended: sign in again');
      checkCsrf(request, found.csrfToken);
      if (found.operator) namedOperators.set(request, found.operator);
      return;
    }
    const given = bearer(request);
    const ok = given !== null && timingSafeEqual(createHash('sha256').update(given).digest(), expected);
    if (ok) return;
    const named = given !== null ? await sessions?.named?.(given) : null;
    if (named) {
      namedOperators.set(request, named);
      return;
    }
    const refused = given !== null ? await sessions?.failed?.(request.ip) : null;
    throw refused ?? new AppError('unauthorized', 'Invalid operator token');
  });
}

/** Any one of the configured tokens (unset ones ignored), compared in constant time; none configured is 403. */
export function requireAnyToken(scope: FastifyInstance, tokens: Array<string | null>, disabled: string, invalid: string): void {
  const hash = (t: string) => createHash('sha256').update(t).digest();
  const expected = tokens.filter((t): t is string => !!t).map(hash);
  scope.addHook('onRequest', async (request: FastifyRequest) => {
    if (expected.length === 0) throw new AppError('forbidden', disabled);
    const given = bearer(request);
    const digest = given === null ? null : hash(given);
    // Compare with every token, so the time taken does not say which one matched.
    const ok = expected.reduce((found, e) => (digest !== null && timingSafeEqual(digest, e)) || found, false);
    if (!ok) throw new AppError('unauthorized', invalid);
  });
}
