// A credential's max_binds and tps. The default counts in this process only; the composition root passes the
// database-backed limits (modules/smpp-credentials) so they hold across instances.
import type { BoundCredential } from '../esme-port.ts';

export interface BindLimits {
  /** A release to call when the bind closes, or null when the credential holds max_binds already. */
  acquireBind(credential: BoundCredential): Promise<(() => void) | null>;
  /** Whether one more submit_sm fits in the credential's tps this second. */
  takeSubmit(credential: BoundCredential): Promise<boolean>;
}

export function createBindLimits(now: () => number = Date.now): BindLimits {
  const binds = new Map<string, number>();
  const seconds = new Map<string, { second: number; count: number }>();
  return {
    async acquireBind(credential) {
      const held = binds.get(credential.id) ?? 0;
      if (held >= credential.maxBinds) return null;
      binds.set(credential.id, held + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (binds.get(credential.id) ?? 1) - 1;
        if (left <= 0) binds.delete(credential.id); else binds.set(credential.id, left);
      };
    },
    async takeSubmit(credential) {
      const second = Math.floor(now() / 1000);
      const current = seconds.get(credential.id);
      if (!current || current.second !== second) {
        seconds.set(credential.id, { second, count: 1 });
        if (seconds.size > 10_000) for (const [id, s] of seconds) if (s.second < second) seconds.delete(id);
        return true;
      }
      if (current.count >= credential.tps) return false;
      current.count++;
      return true;
    },
  };
}
