import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterEach } from 'vitest';

/**
 * A real HTTP server on loopback for webhook tests. Records every request with its body bytes exactly as
 * received, so tests can verify signatures over the raw bytes.
 */

export type ReceivedRequest = {
  method: string;
  path: string;
  /** Node lower-cases header names. */
  headers: IncomingHttpHeaders;
  /** The body decoded as UTF-8; `rawBody` has the exact bytes. */
  body: string;
  rawBody: Buffer;
  receivedAt: Date;
};

export type ReceiverResponse = {
  status: number;
  /** Wait this long before sending the response headers (emulates a slow receiver). */
  delayMs?: number;
  headers?: Record<string, string>;
  body?: string;
};

export type Receiver = {
  /** `http://127.0.0.1:<port>` with no trailing slash; append a path. */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Resolves with the first n requests once at least n have arrived; rejects after timeoutMs. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
};

export type ReceiverOptions = {
  /** Decides each response; default 200 with an empty body. */
  respond?: (req: ReceivedRequest) => ReceiverResponse | Promise<ReceiverResponse>;
};

export async function startReceiver(opts: ReceiverOptions = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const timers = new Set<NodeJS.Timeout>();

  const readBody = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });

  const server = createServer((req, res) => {
    void (async () => {
      const rawBody = await readBody(req);
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: rawBody.toString('utf8'),
        rawBody,
        receivedAt: new Date(),
      };
      requests.push(received);
      for (const w of waiters) w();
      const answer = (await opts.respond?.(received)) ?? { status: 200 };
      if (answer.delayMs) {
        await new Promise<void>((r) => {
          const t = setTimeout(() => (timers.delete(t), r()), answer.delayMs);
          timers.add(t);
        });
      }
      if (res.destroyed) return;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    })().catch(() => res.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    waitFor(n, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(requests.slice(0, n));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver got ${requests.length} of ${n} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A dns.lookup replacement that answers from a fixed table, to emulate DNS in tests (e.g. a public-looking
 * hostname that resolves to 127.0.0.1). IP literals resolve to themselves; unknown names fail with ENOTFOUND.
 */
export function staticLookup(table: Record<string, string | string[]>): LookupFunction {
  return (hostname, options, callback) => {
    const entry = isIP(hostname) ? hostname : table[hostname.toLowerCase()];
    if (entry === undefined) {
      const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      err.code = 'ENOTFOUND';
      process.nextTick(() => callback(err, ''));
      return;
    }
    const all: LookupAddress[] = (Array.isArray(entry) ? entry : [entry]).map((address) => ({
      address,
      family: isIP(address),
    }));
    const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
    process.nextTick(() => {
      if (options.all) return callback(null, wanted);
      const first = wanted[0];
      if (!first) {
        const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        err.code = 'ENOTFOUND';
        return callback(err, '');
      }
      callback(null, first.address, first.family);
    });
  };
}

/**
 * A receiver per call, each closed after the test that started it: for a test file that starts receivers in
 * many tests (call it at the file's top level or in a describe).
 */
export function useReceivers(): (respond?: ReceiverOptions['respond']) => Promise<Receiver> {
  const open: Receiver[] = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });
  return async (respond) => {
    const r = await startReceiver({ respond });
    open.push(r);
    return r;
  };
}
