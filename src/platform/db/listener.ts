import type pg from 'pg';
import { listenerName } from './listener-name.ts';

export interface ListenerOptions {
  /** A fresh, unconnected client for the database (a new one per connection). */
  client(): pg.Client | Promise<pg.Client>;
  /** The connection broke (before listening again). */
  onLost?(): void;
  /** A notification, or a catch-up wake (payload '') on every channel after listening again. */
  onNotify(channel: string, payload: string): void;
  logger?: { warn(obj: object, msg?: string): void };
  /** Back-off between attempts to listen again: from `minDelayMs` doubling to `maxDelayMs` (250 ms, 5 s). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * The one LISTEN connection of a process. When it breaks (a reset, a restart, a failover) it connects again with
 * back-off and LISTENs on every channel again; then it wakes every channel once (payload ''), because whatever
 * was notified while nobody listened is lost: the subscribers look for work at once instead of at their next
 * poll. Its application_name names the channels (listener-name.ts) so other processes can tell it listens.
 */
export function createListener(options: ListenerOptions) {
  const minDelay = options.minDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 5_000;
  const channels = new Set<string>();
  let client: pg.Client | null = null;
  // The connection being made (first or again); null when connected or closed.
  let connecting: Promise<pg.Client> | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delay = minDelay;
  let closed = false;

  const quote = (channel: string) => `"${channel.replace(/"/g, '')}"`;

  async function open(): Promise<pg.Client> {
    const c = await options.client();
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (n) => options.onNotify(n.channel, n.payload ?? ''));
    try {
      await c.connect();
      for (const channel of channels) await c.query(`listen ${quote(channel)}`);
      if (channels.size > 0) await c.query('select set_config(\'application_name\', $1, false)', [listenerName(channels)]);
    } catch (err) {
      c.removeAllListeners('end');
      await c.end().catch(() => {});
      throw err;
    }
    return c;
  }

  /** The connection `c` ended: connect again after the back-off (once, however many events say so). */
  function lost(c: pg.Client): void {
    if (client !== c || closed) return;
    client = null;
    options.onLost?.();
    options.logger?.warn({ retry_in_ms: delay }, 'database LISTEN connection lost: listening again');
    schedule();
  }

  function schedule(): void {
    if (retry || closed) return;
    retry = setTimeout(() => {
      retry = null;
      void reconnect();
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, maxDelay);
  }

  async function reconnect(): Promise<void> {
    try {
      await connect();
      delay = minDelay;
      // Catch up: a notification sent while nobody listened is gone.
      for (const channel of channels) options.onNotify(channel, '');
    } catch (err) {
      options.onLost?.();
      options.logger?.warn({ err: (err as Error).message, retry_in_ms: delay }, 'listening again failed');
      schedule();
    }
  }

  function connect(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= open().then(
      (c) => {
        connecting = null;
        if (closed) { void c.end().catch(() => {}); throw new Error('listener closed'); }
        client = c;
        return c;
      },
      (err: unknown) => { connecting = null; throw err; },
    );
    return connecting;
  }

  return {
    /** LISTENs on `channel` (connecting first if need be); rejects only if the connection cannot be made now. */
    async add(channel: string): Promise<void> {
      if (channels.has(channel)) return;
      channels.add(channel);
      try {
        const c = await connect();
        // A connection made after the add already listens on it; otherwise listen now.
        await c.query(`listen ${quote(channel)}`);
        await c.query('select set_config(\'application_name\', $1, false)', [listenerName(channels)]);
      } catch (err) {
        // The connection broke meanwhile: the next one listens on every channel, this one included.
        if (retry || connecting) return;
        channels.delete(channel);
        throw err;
      }
    },
    /** Listens again on a new connection (the server moved: a failover), as if this one had broken. */
    renew(): void {
      const c = client;
      if (!c) return;
      lost(c);
      void c.end().catch(() => {});
    },
    /** The listening session's backend pid (0 while not connected), for othersListen. */
    pid(): number {
      return (client as { processID?: number } | null)?.processID ?? 0;
    },
    async close(): Promise<void> {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}

export type Listener = ReturnType<typeof createListener>;
