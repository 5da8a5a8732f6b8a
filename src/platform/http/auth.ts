import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Actor } from '../actor.ts';
import { AppError } from '../errors.ts';
import type { RateLimiter } from './rate-limit/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
}

export type Authenticate = (token: string) => Promise<Actor | null>;

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Adds the API-key check and the per-key limits to every route registered in `scope`. The key is looked up on
 * every request (no cache), so a revoked key fails on its very next request on every instance.
 */
export function requireApiKey(scope: FastifyInstance, deps: { authenticate: Authenticate; limiter: RateLimiter }): void {
  scope.decorateRequest('actor', null as unknown as Actor);
  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearer(request);
    if (!token) throw new AppError('unauthorized', 'Missing API key: send Authorization: Bearer <key>');
    const actor = await deps.authenticate(token);
    if (!actor) throw new AppError('unauthorized', 'Invalid or revoked API key');
    request.actor = actor;

    const decision = await deps.limiter.acquire(actor.keyId);
    for (const [name, value] of Object.entries(decision.headers)) reply.header(name, value);
    if (!decision.allowed) {
      throw decision.reason === 'concurrency'
        ? new AppError('concurrency_limited', 'Too many concurrent requests for this API key')
        : new AppError('rate_limited', 'Too many requests for this API key');
    }
    // 'close' fires when the response has been sent and when the client goes away first: either frees the slot.
    reply.raw.once('close', decision.release);
  });
}

/** The operator API's bearer token, compared in constant time. */
export function requireAdminToken(scope: FastifyInstance, token: string | null): void {
  const expected = token ? createHash('sha256').update(token).digest() : null;
  scope.addHook('onRequest', async (request: FastifyRequest) => {
    if (!expected) throw new AppError('forbidden', 'The operator API is disabled: set TASMAN_ADMIN_TOKEN');
    const given = bearer(request);
    const ok = given !== null && timingSafeEqual(createHash('sha256').update(given).digest(), expected);
    if (!ok) throw new AppError('unauthorized', 'Invalid operator token');
  });
}
