import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { listOptouts } from './optouts.repo.ts';

export function createOptoutService(deps: { db: Db }) {
  return {
    /** The caller's own opt-out list, newest first. */
    async list(actor: Actor) {
      const list = await listOptouts(deps.db, actor.accountId);
      return { optouts: list.map((o) => ({ number: o.number, created_at: o.createdAt.toISOString(), source: o.source })) };
    },
  };
}

export type OptoutService = ReturnType<typeof createOptoutService>;
