import type { Db } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { hashApiKey, looksLikeApiKey } from './api-key.ts';
import { findActorsByHashes, touchKey } from './keys.repo.ts';
import { createBatcher } from '../../platform/jobs/batcher.ts';

const TOUCH_EVERY_MS = 60_000;

/**
 * Resolves a bearer token to its account on every request, so revocation needs no cache invalidation: a revoked
 * key fails on its very next request on every instance. Concurrent lookups share one query (group fetch), which
 * keeps that exactness cheap under load. last_used_at is written at most once a minute per key: a write per
 * request would double the cost of auth.
 */
export function createAuthenticator(db: Db) {
  const touched = new Map<string, number>();
  const lookups = createBatcher<string, Actor | null>({
    maxSize: 200,
    maxConcurrent: 2,
    run: async (hashes) => {
      const found = await findActorsByHashes(db, hashes);
      return hashes.map((hash) => found.get(hash) ?? null);
    },
  });
  return async function authenticate(token: string): Promise<Actor | null> {
    if (!looksLikeApiKey(token)) return null;
    const actor = await lookups.submit(hashApiKey(token));
    if (!actor) return null;
    const now = Date.now();
    if ((touched.get(actor.keyId) ?? 0) + TOUCH_EVERY_MS < now) {
      touched.set(actor.keyId, now);
      if (touched.size > 100_000) touched.clear();
      touchKey(db, actor.keyId).catch(() => touched.delete(actor.keyId));
    }
    return actor;
  };
}
