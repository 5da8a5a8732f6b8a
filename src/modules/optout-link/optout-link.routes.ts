import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRateLimiter } from '../../platform/http/rate-limit/index.ts';
import type { LinkService } from '../links/links.service.ts';
import type { OptoutLinkService } from './optout-link.service.ts';
import { PAGE_CSP, renderBusyPage, renderConfirmPage, renderDonePage, renderErrorPage, renderNotFoundPage } from './page.ts';

/** Requests per second, and at once, from one client address to the opt-out pages. */
const PER_ADDRESS = { rps: 10, concurrency: 10 };

// Any string: a malformed code gets the same 404 page as an unknown one (isOptoutCode), not a validation error.
const CodeParams = Type.Object({ code: Type.String() });

// Public pages for people, not API: no key, HTML answers (errors included), and kept out of the OpenAPI document.
// Their policy replaces the deny-all one every answer carries (nosniff, no framing, no referrer: security-headers.ts).
const HEADERS = {
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  'content-security-policy': PAGE_CSP,
};

// The redirect is never cached (each visit is a click) and does not tell the destination where it came from.
const REDIRECT_HEADERS = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' };

function html(reply: FastifyReply, status: number, page: string) {
  return reply.status(status).headers(HEADERS).type('text/html; charset=utf-8').send(page);
}

/**
 * The path the links point at: the path of OPTOUT_LINK_BASE (`/o` by default), matched on any host, so a short
 * domain can be pointed at this service. A base with no path serves codes at the root.
 */
export function optoutLinkPath(base: string): string {
  return new URL(base).pathname.replace(/\/+$/, '');
}

/** What these pages use, and nothing else. */
export type OptoutLinkRoutesDeps = {
  links: LinkService; optoutLink: OptoutLinkService;
  /** OPTOUT_LINK_BASE: its path is where the pages are served. */
  optoutLinkBase: string;
};

const pages: FastifyPluginAsyncTypebox<Omit<OptoutLinkRoutesDeps, 'optoutLinkBase'> & { prefix: string }> = async (app, { links, optoutLink, prefix }) => {
  const limiter = createRateLimiter(PER_ADDRESS);
  app.addHook('onClose', async () => limiter.close());

  // A browser form posts application/x-www-form-urlencoded; the body carries nothing we need.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, _body, done) => done(null, undefined));

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const decision = await limiter.acquire(`optout-link:${request.ip}`);
    if (!decision.allowed) {
      for (const [name, value] of Object.entries(decision.headers)) reply.header(name, value);
      return html(reply, 429, renderBusyPage());
    }
    reply.raw.once('close', decision.release);
  });

  app.setErrorHandler((err: { statusCode?: number }, request, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) request.log.error({ err }, 'opt-out page failed');
    return html(reply, status, renderErrorPage());
  });
  if (prefix !== '') app.setNotFoundHandler((_request, reply) => html(reply, 404, renderNotFoundPage()));

  app.get('/:code', { schema: { hide: true, params: CodeParams } }, async (request, reply) => {
    // Short links (modules/links) share this path with 8-character codes: 302 to the original URL, counting the click.
    if (links.isLinkCode(request.params.code)) {
      const url = await links.follow(request.params.code, { method: request.method, userAgent: request.headers['user-agent'] });
      if (!url) return html(reply, 404, renderNotFoundPage());
      return reply.status(302).headers(REDIRECT_HEADERS).redirect(url, 302);
    }
    const target = await optoutLink.preview(request.params.code);
    if (!target) return html(reply, 404, renderNotFoundPage());
    return html(reply, 200, renderConfirmPage({ ...target, actionPath: `${prefix}/${request.params.code}` }));
  });

  app.post('/:code', { schema: { hide: true, params: CodeParams } }, async (request, reply) => {
    const target = await optoutLink.confirm(request.params.code);
    if (!target) return html(reply, 404, renderNotFoundPage());
    return html(reply, 200, renderDonePage(target));
  });
};

export async function optoutLinkRoutes(app: FastifyInstance, { links, optoutLink, optoutLinkBase }: OptoutLinkRoutesDeps): Promise<void> {
  const prefix = optoutLinkPath(optoutLinkBase);
  await app.register(pages, { links, optoutLink, prefix, ...(prefix ? { prefix } : {}) });
}
