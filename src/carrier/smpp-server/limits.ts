// A credential's max_binds and tps counted in this process only: what the server uses when it is given no other
// limits. The workers role passes the database-backed ones (modules/smpp-credentials/smpp-limits.ts), which hold
// across instances.
import type { BindLimits } from '../esme-port.ts';

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
