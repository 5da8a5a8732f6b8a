import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { DENY_ALL } from './content-security-policy.ts';

/**
 * @fastify/helmet on every answer: nosniff, no framing, no referrer, a deny-all CSP that pages replace with
 * their own (content-security-policy.ts, the opt-out page's). HSTS is left to the TLS terminator: Tasman listens on
 * plain HTTP behind it, and a year-long HSTS that names subdomains is the operator's commitment for the whole
 * domain, not this service's (decision 0070).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: DENY_ALL },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
}
