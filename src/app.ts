import fastJson from 'fast-json-stringify';
import Fastify, { type FastifyServerOptions, LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { ServerOptions } from 'node:http';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { lazyChild, unredacted, type Logger } from './platform/logger.ts';
import type { Services } from './compose.ts';
import { uuidv7 } from './platform/ids.ts';
import { pick } from './common/pick.ts';
import { onFirstUse } from './common/on-first-use.ts';
import { frameworkErrors, guardInput, registerErrorHandling } from './platform/http/errors.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import { forgetActorsAfterWrites, requireApiKey } from './platform/http/auth.ts';
import { API_TAGS, withExamples } from './platform/http/openapi.ts';
import { markApiKeyRoutes, registerRouteRegistry } from './platform/http/route-registry.ts';
import { registerSecurityHeaders } from './platform/http/security-headers.ts';
import { DOCS_CSP } from './platform/http/content-security-policy.ts';
import type { RateLimiter } from './platform/http/rate-limit/index.ts';
import { adminRoutes, type InboundInjector } from './modules/admin/admin.routes.ts';
import { carrierRoutes } from './modules/carriers/carriers.routes.ts';
import { messageRoutes } from './modules/messages/messages.routes.ts';
import { campaignRoutes } from './modules/campaigns/campaigns.routes.ts';
import { optoutRoutes } from './modules/optouts/optouts.routes.ts';
import { creditRoutes } from './modules/credits/credits.routes.ts';
import { webhookRoutes } from './modules/webhooks/webhooks.routes.ts';
import { optoutLinkRoutes } from './modules/optout-link/optout-link.routes.ts';
import { inboxRoutes } from './modules/inbox/inbox.routes.ts';
import { reportRoutes } from './modules/reports/reports.routes.ts';
import { accountRoutes } from './modules/accounts/accounts.routes.ts';
import { userRoutes } from './modules/users/users.routes.ts';
import { twoFactorRoutes } from './modules/sessions/two-factor.routes.ts';
import { numberRoutes } from './modules/numbers/numbers.routes.ts';
import { keyRoutes } from './modules/keys/keys.routes.ts';
import { smppCredentialRoutes } from './modules/smpp-credentials/smpp-credentials.routes.ts';
import { contactRoutes } from './modules/contacts/contacts.routes.ts';
import { templateRoutes } from './modules/templates/templates.routes.ts';
import { statusRoutes } from './modules/status/status.routes.ts';
import { webhookEvents } from './modules/webhooks/webhook-events.schemas.ts';
import { ClickEventBody } from './modules/links/links.schemas.ts';
import { MessageResponse } from './modules/messages/messages.schemas.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { sessionRoutes, USER_COOKIE } from './modules/sessions/sessions.routes.ts';
import { operatorAuth } from './modules/operators/operator-auth.ts';
import { operatorSignInRoutes } from './modules/operators/operator-sign-in.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import type { HealthService } from './modules/health/health.service.ts';
import type { Metrics } from './platform/metrics.ts';
import { senderRoutes } from './modules/senders/senders.routes.ts';
import { senderRequestAdminRoutes } from './modules/senders/sender-requests-admin.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { mcpRoutes } from './modules/mcp/mcp.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import type { TlsCredentials } from './platform/tls.ts';

export interface AppDeps {
  services: Services;
  /** The built-in SMSC for the operator's simulator route: this process's, or (cluster API process) the workers process's. */
  simulator: InboundInjector | null;
  limiter: RateLimiter;
  logger: Logger | false;
  adminToken: string | null;
  health: HealthService;
  metrics: Metrics;
  /** A token that may read /metrics besides the operator token (METRICS_TOKEN). */
  metricsToken: string | null;
  /** Which proxies' X-Forwarded-For to believe (TRUST_PROXY); false by default. */
  trustProxy?: false | number | string[];
  /** How long a client has to send a whole request (HTTP_REQUEST_TIMEOUT); 30 s by default. */
  requestTimeoutMs?: number;
  /** Serve HTTPS with these (TLS_CERT_FILE, TLS_KEY_FILE); the composition root swaps them on renewal. */
  tls?: TlsCredentials | null;
}

/**
 * TRUST_PROXY for Fastify. Fastify refuses a bare hop count (it cannot tell the proxy from a client sending its
 * own X-Forwarded-For), so a count N becomes "believe the N nearest hops", the Express meaning: right only when
 * the proxies are the one way in, which is what setting a count asserts (docs/operations.md).
 */
function trustProxyOption(setting: false | number | string[]): FastifyServerOptions['trustProxy'] {
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return setting;
}

const BODY_LIMIT = 1024 * 1024;

/**
 * A client that sends its headers or body slowly (or never finishes) is cut off: node answers 408 and closes the
 * socket, whose close frees the request's concurrency slot (platform/http/auth.ts). Node checks these timeouts
 * every connectionsCheckingInterval (30 s by default), so it is checked every second instead. connectionTimeout
 * ends a socket silent for a while (a handler that takes that long without writing is ended too, so it is
 * generous).
 */
function serverTimeouts(requestTimeoutMs: number): { requestTimeout: number; connectionTimeout: number; http: ServerOptions } {
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: Math.max(120_000, 2 * requestTimeoutMs),
    http: { headersTimeout: Math.min(10_000, requestTimeoutMs), connectionsCheckingInterval: Math.min(1000, requestTimeoutMs) },
  };
}

// The MCP tool a request ran: its /mcp call, or X-Tasman-Tool from `tasman mcp` calling the REST API.
function toolLogFields(request: FastifyRequest): Record<string, unknown> {
  if (request.mcpTool) return { tool: request.mcpTool.tool, ...(request.mcpTool.code ? { tool_error: request.mcpTool.code } : {}) };
  const named = request.headers['x-tasman-tool'];
  return typeof named === 'string' && /^[\w:.-]{1,64}$/.test(named) ? { tool: named } : {};
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger as FastifyBaseLogger } : { logger: false }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : uuidv7();
    },
    bodyLimit: BODY_LIMIT,
    ...(deps.tls ? { https: deps.tls } : {}),
    ...serverTimeouts(deps.requestTimeoutMs ?? 30_000),
    frameworkErrors,
    trustProxy: trustProxyOption(deps.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: true },
    // One line per request, written when it ends (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is made only if a handler logs through it (platform/logger.ts).
    ...(deps.logger ? { childLoggerFactory: lazyChild as unknown as FastifyServerOptions['childLoggerFactory'] } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // The request line's fields are chosen below, so it skips redaction (platform/logger.ts, unredacted).
  const requestLine = deps.logger ? unredacted(deps.logger) : null;

  // First, so its onRequest hook runs before any hook that may answer (auth, rate limits, the input guard).
  await registerSecurityHeaders(app);
  // Each route's validators and response serializers are compiled by its first request (common/on-first-use.ts).
  // The serializers are Fastify's own (fast-json-stringify; the app adds no shared schemas).
  app.setValidatorCompiler((route) => onFirstUse(() => validatorCompiler(route)));
  app.setSerializerCompiler(({ schema }) => onFirstUse(() => fastJson(schema as object) as (data: unknown) => string));
  registerErrorHandling(app);
  guardInput(app);
  forgetActorsAfterWrites(app, deps.services.authenticate.forget);
  // The hooks every request runs are callback-style: an async hook costs a promise and a turn of the queue each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // API answers are never cached: many carry a secret (a new key, a signing secret, an invite link, recovery
  // codes, a session's CSRF token), and a rule per route would miss the next one. Pages and assets set their own.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control') && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
  // Method, route and status only: never headers (keys) or bodies (message text).
  app.addHook('onResponse', (request, reply, done) => {
    const query = request.url.indexOf('?');
    requestLine?.info({
      reqId: request.id, method: request.method, url: query === -1 ? request.url : request.url.slice(0, query), status: reply.statusCode, ip: request.ip, ms: Math.round(reply.elapsedTime),
      ...toolLogFields(request),
    }, 'request');
    // The route pattern, never the raw URL: ids in paths would make a series per message.
    const route = request.routeOptions.url ?? 'unmatched';
    deps.metrics.httpRequests.inc({ route, status: reply.statusCode });
    deps.metrics.httpDuration.observe({ route }, reply.elapsedTime / 1000);
    // Mail a write queued (an invitation, a reset link) leaves once its transaction has committed.
    if (request.method !== 'GET') deps.services.mail.kick();
    done();
  });
  // An empty body with a JSON content type (some clients send one on bodyless POST and DELETE) is no body.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = Object.assign(new Error('The request body is not valid JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
      done(err, undefined);
    }
  });

  // Every route is recorded, and its documented errors derived, as it is registered (route-registry.ts).
  registerRouteRegistry(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tasman SMS API',
        version: '1.0.0',
        description: 'Send SMS to Australian and New Zealand mobiles, track delivery, read replies, honour opt-outs.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: tsm_…' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'The operator token (TASMAN_ADMIN_TOKEN)' },
        },
      },
      security: [{ bearerAuth: [] }],
      tags: API_TAGS,
      // The events Tasman POSTs to clients' endpoints (docs/webhooks.md).
      webhooks: webhookEvents(MessageResponse, ClickEventBody),
    },
    transform: withExamples,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(cookie);
  const s = deps.services;
  const { adminToken } = deps;
  const operatorSessions = operatorAuth(s);
  // Each routes plugin is handed the services it uses and nothing else (its own *RoutesDeps type).
  await app.register(healthRoutes, { health: deps.health, metrics: deps.metrics, adminToken, metricsToken: deps.metricsToken, operatorSessions });
  await app.register(dashboardRoutes);
  await app.register(sessionRoutes, { ...pick(s, 'sessions', 'passwordResets', 'addressThrottle'), publicUrl: s.config.publicUrl, adminToken });
  await app.register(operatorSignInRoutes, { ...pick(s, 'operatorSignIn', 'sessions', 'addressThrottle'), publicUrl: s.config.publicUrl, adminToken });
  await app.register(adminRoutes, { ...pick(s, 'admin', 'smppCredentials', 'audit', 'mail', 'operators'), simulator: deps.simulator, adminToken, operatorSessions });
  await app.register(carrierRoutes, { carrierAdmin: s.carrierAdmin, adminToken, operatorSessions });
  await app.register(senderRequestAdminRoutes, { senderRequests: s.senderRequests, adminToken, operatorSessions });
  // The client libraries' status(): public, no key.
  await app.register(statusRoutes, pick(s, 'status'));
  // Public opt-out link pages (no API key, HTML, their own per-address limit).
  await app.register(optoutLinkRoutes, { ...pick(s, 'links', 'optoutLink'), optoutLinkBase: s.config.optoutLinkBase });
  await app.register(async (scope) => {
    markApiKeyRoutes(scope);
    requireApiKey(scope, {
      authenticate: s.authenticate, limiter: deps.limiter, onUnknownKey: deps.metrics.unknownKey,
      sessions: { cookie: USER_COOKIE, authenticate: s.sessions.authenticate },
      onRefused: s.audit.refusedRequest,
    });
    await scope.register(messageRoutes, pick(s, 'messages', 'replies', 'templates', 'idempotency'));
    await scope.register(campaignRoutes, pick(s, 'campaigns'));
    await scope.register(optoutRoutes, pick(s, 'optouts'));
    await scope.register(creditRoutes, pick(s, 'credits'));
    await scope.register(webhookRoutes, pick(s, 'webhooks'));
    await scope.register(inboxRoutes, pick(s, 'inbox', 'conversations'));
    await scope.register(reportRoutes, pick(s, 'reports'));
    await scope.register(accountRoutes, pick(s, 'accounts', 'accountKeys', 'idempotency'));
    await scope.register(userRoutes, pick(s, 'users'));
    await scope.register(twoFactorRoutes, pick(s, 'twoFactor'));
    await scope.register(numberRoutes, pick(s, 'numbers'));
    await scope.register(keyRoutes, pick(s, 'keys'));
    await scope.register(smppCredentialRoutes, pick(s, 'smppCredentials'));
    await scope.register(contactRoutes, pick(s, 'contacts', 'lists'));
    await scope.register(templateRoutes, pick(s, 'templates'));
    await scope.register(senderRoutes, pick(s, 'senders', 'senderRequests'));
    await scope.register(settingsRoutes, pick(s, 'settings'));
    await scope.register(mcpRoutes, {
      ...pick(s, 'messages', 'replies', 'inbox', 'conversations', 'optouts', 'campaigns', 'credits', 'reports', 'numbers', 'senders', 'webhooks', 'settings', 'accounts', 'contacts', 'templates', 'idempotency', 'audit'),
      maxCreditsPerCall: s.config.mcp.maxCreditsPerCall, optoutLinkBase: s.config.optoutLinkBase,
    });
    await scope.register(auditRoutes, pick(s, 'audit'));
  });
  return app as unknown as FastifyInstance;
}
