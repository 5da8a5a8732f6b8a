import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { Agent, buildConnector } from 'undici';
import { isPublicAddress, urlHost } from './url-guard.ts';

/**
 * Posts webhook bodies. Invariants (see README.md):
 * - The address check happens on the address the socket actually connects to, inside the connector, so DNS
 *   cannot change between the check and the connection (no rebinding gap). An earlier checkWebhookUrl is only
 *   for a friendly error when the URL is saved.
 * - Redirects are never followed: a 3xx is reported as a failed attempt.
 * - One deadline covers connect, headers and body; post() never throws, every failure becomes `error` text.
 */

export type PostResult = {
  /** HTTP status if a response arrived (also kept when the body then timed out), else null. */
  statusCode: number | null;
  /** Why the attempt failed, or null when a response was read completely and was not a redirect. */
  error: string | null;
  durationMs: number;
};

export type WebhookSenderOptions = {
  /** WEBHOOK_TIMEOUT_MS: deadline for the whole exchange. */
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: permit http:// and non-public addresses (development, tests). */
  allowPrivate: boolean;
  /** dns.lookup-shaped resolver; injectable so tests can emulate DNS. */
  lookup?: LookupFunction;
  /** Keep-alive connections per origin; default 4. */
  connectionsPerOrigin?: number;
  /** Response body bytes read (and discarded) before the connection is dropped; default 64 KiB. */
  maxResponseBytes?: number;
};

/** Only 2xx is success; 1xx cannot reach here, 3xx is never followed, 4xx and 5xx are failures. */
export function isSuccess(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode <= 299;
}

/** Whether an attempt delivered the event: a 2xx response read in full within the deadline. */
export function isDelivered(result: PostResult): boolean {
  return result.error === null && isSuccess(result.statusCode);
}

/** Raised by the connector when the destination address is not public; its message becomes the error text. */
export class PrivateAddressError extends Error {
  readonly code = 'private_address';
  constructor(host: string, address: string) {
    super(host === address ? `refused non-public address ${address}` : `refused ${host}: resolves to non-public address ${address}`);
  }
}

/**
 * A dns.lookup wrapper that resolves all addresses and fails if any is non-public, then answers in the shape
 * net.connect asked for. net only connects to addresses this returns, so the check covers the real socket.
 */
function guardedLookup(lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses, family) => {
      if (err) return callback(err, '');
      const all = typeof addresses === 'string' ? [{ address: addresses, family: family ?? isIP(addresses) }] : addresses;
      const bad = all.find((a) => !isPublicAddress(a.address));
      if (bad) return callback(new PrivateAddressError(hostname, bad.address), '');
      const first = all[0];
      if (options.all) return callback(null, all);
      if (!first) return callback(Object.assign(new Error(`no addresses for ${hostname}`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}

function createConnector(opts: { timeoutMs: number; allowPrivate: boolean; lookup: LookupFunction }): buildConnector.connector {
  const base = buildConnector({
    timeout: opts.timeoutMs,
    lookup: opts.allowPrivate ? opts.lookup : guardedLookup(opts.lookup),
  });
  if (opts.allowPrivate) return base;
  return (connectOpts, callback) => {
    // net.connect skips lookup for IP literals, so those are checked here before any packet is sent.
    const host = connectOpts.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) && !isPublicAddress(host)) return callback(new PrivateAddressError(host, host), null);
    base(connectOpts, (err, socket) => {
      if (err) return callback(err, null);
      // Belt and braces: the peer the socket really reached. Should be unreachable given the checks above.
      const remote = socket?.remoteAddress;
      if (!socket || !remote || !isPublicAddress(remote)) {
        socket?.destroy();
        return callback(new PrivateAddressError(host, remote ?? 'unknown'), null);
      }
      callback(null, socket);
    });
  };
}

const ERROR_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'dns lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_SOCKET: 'connection closed',
};

/** Short, stable error text for the attempts log; never includes the body or headers. */
function describeError(err: unknown): string {
  if (err instanceof PrivateAddressError) return err.message;
  const e = err as { code?: string; message?: string; cause?: unknown; errors?: unknown[] };
  if (e?.cause instanceof PrivateAddressError) return e.cause.message;
  // autoSelectFamily tries each address and reports an AggregateError; its first error is representative.
  if (Array.isArray(e?.errors) && e.errors.length > 0) return describeError(e.errors[0]);
  const code = e?.code;
  if (code && ERROR_TEXT[code]) return ERROR_TEXT[code];
  if (code && (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL'))) return `tls error (${code})`;
  const text = e?.message || String(err);
  return code ? `${text} (${code})`.slice(0, 200) : text.slice(0, 200);
}

const MAX_CACHED_TARGETS = 10_000;

/** Where a URL posts to, or why it cannot be posted to (the attempt's error text). */
type Target = { origin: string; path: string; authorization: string | null };

function parseTarget(url: string, allowPrivate: boolean): Target | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid url';
  }
  if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:')) {
    return allowPrivate || parsed.protocol !== 'http:' ? 'invalid url' : 'https required';
  }
  if (urlHost(parsed) === '') return 'invalid url';
  let authorization: string | null = null;
  // URL credentials are not sent by undici on its own; pass them as basic auth (see url-guard.ts).
  if (parsed.username) {
    try {
      authorization = 'Basic ' + Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64');
    } catch (err) {
      return describeError(err);
    }
  }
  return { origin: parsed.origin, path: parsed.pathname + parsed.search, authorization };
}

/** The caller's headers over the defaults (a header the caller set, in any case, wins). */
function withDefaults(headers: Record<string, string>, authorization: string | null): Record<string, string> {
  let type = false, agent = false, auth = false;
  for (const k in headers) {
    const name = k.toLowerCase();
    if (name === 'content-type') type = true;
    else if (name === 'user-agent') agent = true;
    else if (name === 'authorization') auth = true;
  }
  const out: Record<string, string> = {};
  if (!type) out['content-type'] = 'application/json';
  if (!agent) out['user-agent'] = 'Tasman-Webhooks/1';
  if (authorization !== null && !auth) out.authorization = authorization;
  return Object.assign(out, headers);
}

/**
 * Reads a response body to its end so the connection can be reused, but never more than `limit` bytes: past it
 * the body is destroyed (the connection with it) and that still counts as read. Resolves with the error that cut
 * the body short (the deadline's abort, a reset), else null. Events rather than `for await`: the async iterator
 * cost a few promises per response, on every delivery.
 */
function drain(body: Readable, limit: number): Promise<Error | null> {
  return new Promise((resolve) => {
    let read = 0;
    body.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) {
        resolve(null);
        body.destroy();
      }
    });
    body.once('end', () => resolve(null));
    body.once('error', (err) => resolve(err));
    body.once('close', () => resolve(body.errored));
  });
}

export function createWebhookSender(opts: WebhookSenderOptions) {
  const maxResponseBytes = opts.maxResponseBytes ?? 64 * 1024;
  const agent = new Agent({
    connect: createConnector({
      timeoutMs: opts.timeoutMs,
      allowPrivate: opts.allowPrivate,
      lookup: opts.lookup ?? (dnsLookup as LookupFunction),
    }),
    connections: opts.connectionsPerOrigin ?? 4,
    // Backstops only: the AbortController below enforces the real whole-exchange deadline.
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    keepAliveTimeout: 30_000,
  });

  // Every delivery of an endpoint posts to the same URL: parse and check it once (bounded; cleared when full).
  // A URL with credentials in it is parsed each time: they are a secret, opened per delivery and not kept.
  const targets = new Map<string, Target | string>();
  function targetOf(url: string): Target | string {
    let target = targets.get(url);
    if (target === undefined) {
      target = parseTarget(url, opts.allowPrivate);
      if (typeof target !== 'string' && target.authorization !== null) return target;
      if (targets.size >= MAX_CACHED_TARGETS) targets.clear();
      targets.set(url, target);
    }
    return target;
  }

  async function post(url: string, body: string, headers: Record<string, string>): Promise<PostResult> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): PostResult => ({
      statusCode,
      error,
      durationMs: Math.round(performance.now() - started),
    });

    const target = targetOf(url);
    if (typeof target === 'string') return done(null, target);

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, opts.timeoutMs);

    let statusCode: number | null = null;
    try {
      const res = await agent.request({
        origin: target.origin,
        path: target.path,
        method: 'POST',
        headers: withDefaults(headers, target.authorization),
        body,
        signal: controller.signal,
      });
      statusCode = res.statusCode;
      const failed = await drain(res.body, maxResponseBytes);
      if (failed) return done(statusCode, timedOut ? 'timeout' : describeError(failed));
      if (statusCode >= 300 && statusCode <= 399) return done(statusCode, 'redirect not followed');
      return done(statusCode, null);
    } catch (err) {
      return done(statusCode, timedOut ? 'timeout' : describeError(err));
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    post,
    /** Closes idle connections and waits for in-flight requests; a no-op after destroy(). */
    close: () => (agent.destroyed ? Promise.resolve() : agent.close()),
    /** Aborts in-flight requests (their post() resolves with an error) and closes every connection. */
    destroy: () => agent.destroy(),
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
