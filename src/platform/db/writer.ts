import pg from 'pg';
import { describeUrl } from './connect-retry.ts';

/**
 * Which host of a list is the primary (decision 0064). A server counts as writable when it is not in
 * recovery and does not default to read-only transactions, so a standby, and a former primary that came back as
 * one, is never chosen: new connections go only to the host the last probe found writable, every new connection is
 * checked again (`isReadOnly`), and a connection made before the writer changed is destroyed, not reused.
 *
 * The choice is made again (`invalidate`) whenever a connection breaks or a statement hits a read-only server
 * (25006): the next connection probes the hosts, starting with the current one.
 */
export const READ_ONLY_SQL = `select pg_is_in_recovery() or current_setting('transaction_read_only') = 'on' as read_only`;

export interface WriterOptions {
  /** How long a probe may take to connect to one host (default 3 s): a host that does not answer is skipped. */
  probeTimeoutMs?: number;
  logger?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

export async function isReadOnly(client: Pick<pg.Client, 'query'>): Promise<boolean> {
  const { rows } = await client.query<{ read_only: boolean }>(READ_ONLY_SQL);
  return rows[0]?.read_only ?? true;
}

export function createWriterChoice(urls: string[], options: WriterOptions = {}) {
  const probeTimeoutMs = options.probeTimeoutMs ?? 3_000;
  let index = 0;
  let generation = 0;
  let stale = true;
  let probing: Promise<void> | null = null;
  const generationOf = new WeakMap<object, number>();
  const movedListeners = new Set<() => void>();

  async function probe(url: string): Promise<boolean> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: probeTimeoutMs });
    client.on('error', () => {});
    await client.connect();
    try {
      return !(await isReadOnly(client));
    } finally {
      await client.end().catch(() => {});
    }
  }

  async function choose(): Promise<void> {
    const failures: string[] = [];
    for (let i = 0; i < urls.length; i++) {
      const at = (index + i) % urls.length;
      try {
        if (await probe(urls[at]!)) {
          if (at !== index) {
            options.logger?.warn({ from: describeUrl(urls[index]!), to: describeUrl(urls[at]!) }, 'the writable database moved: connecting there');
            index = at;
            generation += 1;
            for (const fn of movedListeners) fn();
          }
          stale = false;
          return;
        }
        failures.push(`${describeUrl(urls[at]!)} is read-only`);
      } catch (err) {
        failures.push(`${describeUrl(urls[at]!)}: ${(err as Error).message || (err as { code?: string }).code}`);
      }
    }
    throw Object.assign(new Error(`no writable server among the database hosts (${failures.join('; ')})`), { code: 'NO_WRITER' });
  }

  return {
    /** Resolves once a writable host is known (probing the hosts if the last choice was called into doubt). */
    ready(): Promise<void> {
      if (!stale) return Promise.resolve();
      probing ??= choose().finally(() => { probing = null; });
      return probing;
    },
    /** The chosen host's connection string. */
    url: (): string => urls[index]!,
    /** Something went wrong with a connection: choose again before the next one. */
    invalidate(): void {
      stale = true;
    },
    /** Calls `fn` whenever the writable host changes (a session on the old one must move too: LISTEN). */
    onMoved(fn: () => void): void {
      movedListeners.add(fn);
    },
    /** Marks a client as made for the current choice. */
    tag(client: object): void {
      generationOf.set(client, generation);
    },
    /** Whether a client was made for an earlier choice (the writer has moved since). */
    outdated(client: object): boolean {
      return (generationOf.get(client) ?? generation) !== generation;
    },
  };
}

export type WriterChoice = ReturnType<typeof createWriterChoice>;
