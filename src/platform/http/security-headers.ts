import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import { DENY_ALL } from './content-security-policy.ts';

/**
 * helmet's headers on every answer: nosniff, no framing, no referrer, a deny-all CSP that pages replace with their
 * own (content-security-policy.ts, the opt-out page's). HSTS is left to the TLS terminator: Tasman listens on plain
 * HTTP behind it, and a year-long HSTS that names subdomains is the operator's commitment for the whole domain, not
 * this service's (decision 0070).
 *
 * They never change, so helmet runs once, at start, and each request copies what it set: running helmet per
 * request (@fastify/helmet built its middleware again each time) was a few percent of the API's CPU under load.
 * Set as the reply's own headers at onRequest, so a page's `reply.header` replaces any of them.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = helmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers helmet sets with Tasman's options, read from a stand-in response (helmet only sets and removes). */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => { headers[name.toLowerCase()] = value; },
    removeHeader: (name: string) => { delete headers[name.toLowerCase()]; },
  };
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: DENY_ALL },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  })({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => { if (err) throw err; });
  return headers;
}
