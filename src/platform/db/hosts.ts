// Host lists for a primary and its standbys. node-postgres takes one host per connection string (no libpq
// multi-host, no target_session_attrs), so Tasman splits `postgres://u@h1:5432,h2:5433/db` into one URL per host
// and chooses the writable one itself (writer.ts).

export interface HostPort {
  host: string;
  port: number;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/i;
const HOST_PORT = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s]+))(?::(\d{1,5}))?$/;

/** `h1:5432,h2,[::1]:5433` as hosts and ports (5432 when a port is left out); throws naming the bad entry. */
export function parseHostList(list: string): HostPort[] {
  const entries = list.split(',').map((s) => s.trim());
  return entries.map((entry) => {
    const m = HOST_PORT.exec(entry);
    const port = m?.[3] === undefined ? 5432 : Number(m[3]);
    if (!m || port < 1 || port > 65535) throw new Error(`"${entry}" is not host or host:port`);
    return { host: m[1] ?? m[2]!, port };
  });
}

const hostPart = ({ host, port }: HostPort) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Whether a connection string names several hosts. */
export const isHostList = (databaseUrl: string): boolean => (URL_PARTS.exec(databaseUrl)?.[3] ?? '').includes(',');

/**
 * One connection string per host of `databaseUrl` (user, password, database and parameters kept), in order. A
 * string naming one host comes back unchanged.
 */
export function splitHosts(databaseUrl: string): string[] {
  const m = URL_PARTS.exec(databaseUrl);
  if (!m || !m[3]!.includes(',')) return [databaseUrl];
  const [, scheme, auth, hosts, rest] = m;
  return parseHostList(hosts!).map((h) => `${scheme}${auth === undefined ? '' : `${auth}@`}${hostPart(h)}${rest}`);
}

/** `databaseUrl` with its host (or hosts) replaced by the list `hosts` (DATABASE_HOSTS). */
export function withHosts(databaseUrl: string, hosts: string): string {
  const m = URL_PARTS.exec(databaseUrl);
  if (!m) throw new Error('is not a postgres:// URL');
  const [, scheme, auth, , rest] = m;
  return `${scheme}${auth === undefined ? '' : `${auth}@`}${parseHostList(hosts).map(hostPart).join(',')}${rest}`;
}
