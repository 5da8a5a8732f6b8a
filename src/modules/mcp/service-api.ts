import type { Actor } from '../../platform/actor.ts';
import type { RouteScopes } from '../../platform/http/auth.ts';
import type { Services } from '../../compose.ts';
import { requireScope } from '../keys/scopes.ts';
import { operations, type OperationName, type TasmanApi } from './operations.ts';

/**
 * The operations in-process, for /mcp: the caller's key must hold the scope its route declares (the very map the
 * REST auth hook enforces), then the route's service call runs. A route missing from the map is a wiring error
 * found at start-up, never a tool that skips the check.
 */
export function createServiceApi(services: Services, actor: Actor, routeScopes: RouteScopes): TasmanApi {
  return async (op, request) => {
    const operation = operations[op];
    requireScope(actor.scopes, scopeOf(routeScopes, op));
    return operation.call(services, actor, request);
  };
}

export function scopeOf(routeScopes: RouteScopes, op: OperationName) {
  const { method, path } = operations[op];
  const scope = routeScopes.get(`${method} ${path}`);
  if (!scope || scope === 'any') throw new Error(`MCP operation ${op} has no scoped route ${method} ${path}`);
  return scope;
}

/** Throws unless every operation stands on a registered, scoped route: call once when the app is built. */
export function assertOperationsRouted(routeScopes: RouteScopes): void {
  for (const op of Object.keys(operations) as OperationName[]) scopeOf(routeScopes, op);
}
