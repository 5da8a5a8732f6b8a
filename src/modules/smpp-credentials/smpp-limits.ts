import type { Db } from '../../platform/db/client.ts';
import type { BindLimits } from '../../carrier/esme-port.ts';
import { deleteBind, insertBind, renewBinds, takeSubmit } from './smpp-limits.repo.ts';

/** How often the caller runs renew(): well within BIND_LAPSE_SECONDS, so a live bind never lapses. */
export const RENEW_BINDS_MS = 10_000;

/**
 * max_binds and tps held in the database, so they hold across every instance of the SMPP server: each bind is a
 * row renewed while it is open (renew(), run every RENEW_BINDS_MS by the caller's periodic job; a crashed
 * instance's lapse), each submit one conditional upsert on the credential's counter for the current second.
 */
export function createSharedBindLimits(deps: { db: Db; now?: () => Date }): BindLimits & { renew(): Promise<void> } {
  const now = deps.now ?? (() => new Date());
  const held = new Map<string, () => { pdusIn: number; pdusOut: number }>();
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
    takeSubmit: (credential) => takeSubmit(deps.db, credential.id, credential.tps, Math.floor(now().getTime() / 1000)),
    /** This instance's binds are alive, with their PDU counts so far. */
    renew: () => renewBinds(deps.db, [...held].map(([id, counts]) => ({ id, ...counts() }))),
  };
}
