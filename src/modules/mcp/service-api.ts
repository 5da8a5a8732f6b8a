import type { Actor } from '../../platform/actor.ts';
import type { Idempotency } from '../../platform/http/idempotency.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { authorize, type RoutePermission } from '../../platform/permissions.ts';
import { AppError } from '../../platform/errors.ts';
import { REFUSAL_CODES } from '../../platform/audit/entry.ts';
import { operations, type Operation, type OperationName, type OperationServices, type TasmanApi } from './operations.ts';

/** A route's permission as the route registry recorded it (platform/http/route-registry.ts `scopeOf`). */
export type RouteScopeOf = (method: string, url: string) => RoutePermission | 'any' | null;

/**
 * The operations in-process, for /mcp: the caller (a key or a signed-in user) must hold the permission its route
 * declares (read from the route registry, the same declaration and the same check the REST auth hook applies),
 * then the route's service call runs. An operation without a route is a wiring error found at start-up, never a
 * tool that skips the check.
 */
/** What the in-process operations use: their services, the idempotency store and the audit log. */
export type ServiceApiDeps = OperationServices & { idempotency: Idempotency; audit: AuditService };

export function createServiceApi(services: ServiceApiDeps, actor: Actor, routeScope: RouteScopeOf): TasmanApi {
  return async (op, request) => {
    const operation: Operation = operations[op];
    try {
      authorize(actor, scopeOf(routeScope, op));
      const key = request.idempotencyKey;
      if (key === undefined || !operation.keyedAs) return await operation.call(services, actor, request);
      // The REST route's own rules and scope (platform/http/idempotency.ts): the same key replays the first answer.
      const answer = await services.idempotency.runKeyed(actor.accountId, key, operation.keyedAs(request), request.body,
        (within) => operation.call(services, actor, request, within));
      return answer.result;
    } catch (err) {
      // A tool's refusal is a tool result, not an HTTP error, so the keyed routes' hook (auth.ts) never sees it.
      if (err instanceof AppError && REFUSAL_CODES.has(err.code)) {
        await services.audit.refusedRequest(actor, { code: err.code, method: operation.method, route: `${operation.path} (MCP)` });
      }
      throw err;
    }
  };
}

export function scopeOf(routeScope: RouteScopeOf, op: OperationName): RoutePermission {
  const { method, path } = operations[op];
  const scope = routeScope(method, path);
  if (!scope || scope === 'any') throw new Error(`MCP operation ${op} has no scoped route ${method} ${path}`);
  return scope;
}

/** Throws unless every operation stands on a registered, scoped route: call once when the app is built. */
export function assertOperationsRouted(routeScope: RouteScopeOf): void {
  for (const op of Object.keys(operations) as OperationName[]) scopeOf(routeScope, op);
}
