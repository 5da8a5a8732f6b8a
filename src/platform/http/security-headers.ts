import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import { DENY_ALL } from './content-security-policy.ts';

/**
 * helmet's headers on every answer: nosniff, no framing, no referrer, a deny-all CSP that pages replace with their
 * own (content-security-policy.ts, the opt-out page's). HSTS is left to the TLS terminator: Tasman listens on plain
 * HTTP behind it, and a year-long HSTS that names subdomains is the operator's commitment for the whole domain, not
 * this service's (decision 0070).
 *
 * The middleware is built once: @fastify/helmet built it again for every request (parsing the policy each time),
 * a few percent of the API's CPU under load. Set on the raw response at onRequest, as before, so a page's own
 * `reply.header` still replaces any of them.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const apply = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: DENY_ALL },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  app.addHook('onRequest', (request, reply, done) => { apply(request.raw, reply.raw, done as (err?: unknown) => void); });
}
