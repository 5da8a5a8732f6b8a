import type { Database, Db } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { hashApiKey, looksLikeApiKey } from './api-key.ts';
import { findActorsByHashes, touchKey } from './keys.repo.ts';
import { createBatcher } from '../../platform/jobs/batcher.ts';

const TOUCH_EVERY_MS = 60_000;
/** The NOTIFY channel migration 0021's triggers raise when a key or an account changes what its actor carries. */
export const AUTH_CHANGED_CHANNEL = 'tasman_auth';
/** The longest a cached actor is used without a notification having cleared it (a lost notification's bound). */
export const ACTOR_CACHE_TTL_MS = 5_000;
const MAX_CACHED = 50_000;

interface ActorCache {
  entries: Map<string, { actor: Actor; until: number }>;
  /** Bumped on every invalidation: a look-up that started before one does not refill the cache. */
  generation: number;
  /** Nothing is cached until LISTEN is in place (and nothing ever, if it failed). */
  listening: boolean;
}

function clear(cache: ActorCache): void {
  cache.generation += 1;
  cache.entries.clear();
}

export interface AuthenticatorOptions {
  /**
   * LISTEN on the database: with it, actors are cached for ACTOR_CACHE_TTL_MS and cleared whenever a key or an
   * account changes anywhere (migration 0021's triggers). Without it every request looks its key up.
   */
  listen?: Database['listen'];
  now?: () => number;
}

/**
 * Resolves a bearer token to its account. Concurrent look-ups share one query (group fetch). With `listen`, an
 * active key's actor is kept for a few seconds: a key look-up was one statement per few requests under load. A
 * change is honoured at once in the process that made it (`forget`, called by the HTTP layer after every write
 * that may change a key or an account, before its answer is sent: platform/http/auth.ts) and
 * within a notification's delay in every other process, and never later than ACTOR_CACHE_TTL_MS (a lost
 * notification, a change made by hand without the triggers). Unknown and revoked keys are never cached: a new key
 * works on its first request. last_used_at is written at most once a minute per key: a write per request would
 * double the cost of auth.
 */
export function createAuthenticator(db: Db, options: AuthenticatorOptions = {}) {
  const now = options.now ?? Date.now;
  const cache: ActorCache = { entries: new Map(), generation: 0, listening: false };
  if (options.listen) {
    options.listen(AUTH_CHANGED_CHANNEL, () => clear(cache)).then(() => { cache.listening = true; }, () => {});
  }
  const touched = new Map<string, number>();
  const lookups = createBatcher<string, Actor | null>({
    maxSize: 200,
    maxConcurrent: 2,
    run: async (hashes) => {
      const found = await findActorsByHashes(db, hashes);
      return hashes.map((hash) => found.get(hash) ?? null);
    },
  });
  async function lookUp(hash: string, at: number): Promise<Actor | null> {
    const hit = cache.entries.get(hash);
    if (hit && hit.until > at) return hit.actor;
    const generation = cache.generation;
    const actor = await lookups.submit(hash);
    if (actor && cache.listening && generation === cache.generation) {
      if (cache.entries.size >= MAX_CACHED) cache.entries.clear();
      cache.entries.set(hash, { actor, until: at + ACTOR_CACHE_TTL_MS });
    }
    return actor;
  }
  async function authenticate(token: string): Promise<Actor | null> {
    if (!looksLikeApiKey(token)) return null;
    const at = now();
    const actor = await lookUp(hashApiKey(token), at);
    if (!actor) return null;
    if ((touched.get(actor.keyId) ?? 0) + TOUCH_EVERY_MS < at) {
      touched.set(actor.keyId, at);
      if (touched.size > 100_000) touched.clear();
      touchKey(db, actor.keyId).catch(() => touched.delete(actor.keyId));
    }
    return actor;
  }
  /** Forgets every actor this authenticator has cached. */
  const forget = () => clear(cache);
  return Object.assign(authenticate, { forget });
}
