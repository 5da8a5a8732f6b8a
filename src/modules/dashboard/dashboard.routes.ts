import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DASHBOARD_CSP } from '../../platform/http/content-security-policy.ts';

/** Where `npm run build:web` (run by `npm install`) writes the dashboard. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));

const hide = { schema: { hide: true } };
const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

// The page's own policy replaces the deny-all one every answer carries (platform/http/security-headers.ts); nothing
// may frame it (clickjacking).
function pageHeaders(reply: FastifyReply) {
  reply.header('content-security-policy', DASHBOARD_CSP).header('x-frame-options', 'DENY').header('referrer-policy', 'same-origin');
}

/**
 * The web dashboard (web/, a React single-page app) under /app/, so it never shadows an API path: every API route
 * keeps its path and JSON 404s stay JSON. A browser opening `/`, `/login` or `/operator` is sent to its page.
 */
export async function dashboardRoutes(app: FastifyInstance, opts: { root?: string } = {}) {
  const root = opts.root ?? DASHBOARD_DIR;
  const built = existsSync(`${root}/index.html`);

  app.get('/', hide, async (request, reply) => {
    if (!wantsHtml(request)) return reply.status(404).send({ error: 'No route GET /: the API is documented at /docs', code: 'route_not_found' });
    return reply.redirect('/app/');
  });
  app.get('/login', hide, async (_request, reply) => reply.redirect('/app/login'));
  app.get('/operator', hide, async (_request, reply) => reply.redirect('/app/operator'));

  if (!built) {
    const notBuilt = async (_request: FastifyRequest, reply: FastifyReply) => reply.status(503).type('text/plain; charset=utf-8')
      .send('The dashboard has not been built: run `npm run build:web` (npm install does it), then restart.\n');
    app.get('/app', hide, notBuilt);
    app.get('/app/*', hide, notBuilt);
    return;
  }
  // Hashed assets never change under their name; index.html must be fetched fresh to pick up a new build.
  await app.register(fastifyStatic, {
    // preCompressed: the build writes .br and .gz beside each asset (web/build-if-stale.mjs).
    root, prefix: '/app/', wildcard: false, index: false, decorateReply: true, preCompressed: true,
    setHeaders: (res, file) => {
      res.header('cache-control', file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Client-side routes (/app/, /app/send, /app/messages/…) all load the one page; a missing asset stays a 404.
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith('/app/assets/')) return reply.status(404).send({ error: 'No such asset', code: 'route_not_found' });
    pageHeaders(reply);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };
  app.get('/app', hide, page);
  app.get('/app/*', hide, page);
}
