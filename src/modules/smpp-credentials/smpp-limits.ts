import type { Db } from '../../platform/db/client.ts';
import type { BindLimits } from '../../carrier/esme-port.ts';
import { deleteBind, insertBind, renewBinds, takeSubmit } from './smpp-limits.repo.ts';

const RENEW_EVERY_MS = 10_000;

/**
 * max_binds and tps held in the database, so they hold across every instance of the SMPP server: each bind is a
 * row renewed while it is open (a crashed instance's lapse), each submit one conditional upsert on the
 * credential's counter for the current second.
 */
export function createSharedBindLimits(deps: { db: Db; now?: () => number }): BindLimits & { stop(): void } {
  const now = deps.now ?? Date.now;
  const held = new Map<string, () => { pdusIn: number; pdusOut: number }>();
  const timer = setInterval(() => {
    renewBinds(deps.db, [...held].map(([id, counts]) => ({ id, ...counts() }))).catch(() => {});
  }, RENEW_EVERY_MS);
  timer.unref();
  return {
    async acquireBind(credential, bind) {
      const id = await insertBind(deps.db, {
        credentialId: credential.id, accountId: credential.accountId, systemId: credential.systemId, mode: bind.mode, address: bind.address, maxBinds: credential.maxBinds,
      });
      if (!id) return null;
      held.set(id, bind.counts);
      return () => {
        if (!held.delete(id)) return;
        deleteBind(deps.db, id).catch(() => {});
      };
    },
    takeSubmit: (credential) => takeSubmit(deps.db, credential.id, credential.tps, Math.floor(now() / 1000)),
    stop() { clearInterval(timer); },
  };
}
