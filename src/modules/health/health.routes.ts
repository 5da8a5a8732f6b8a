import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAdminToken, requireAnyToken, type OperatorSessionAuth } from '../../platform/http/auth.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { HealthService } from './health.service.ts';

const tags = ['Operations'];

const Readiness = Type.Object({
  ready: Type.Boolean({ description: 'true when every check passes' }),
  checks: Type.Object({
    database: Type.String({ description: 'ok or failed' }),
    migrations: Type.String({ description: 'ok, pending, or unknown when the database does not answer' }),
    carriers: Type.String({ description: 'ok, unbound, or not_checked in a process without the worker role' }),
  }, { description: 'Each check\'s result' }),
  failed: Type.Union([Type.String(), Type.Null()], { description: 'the first failed check, in words' }),
}, { description: 'Readiness and its checks' });

const Pipeline = Type.Object({
  queues: Type.Array(Type.Object({
    queue: Type.String({ description: 'messages (queued for the carrier) or webhooks (deliveries pending)' }),
    depth: Type.Integer({ description: 'rows waiting' }),
    oldest_seconds: Type.Integer({ description: 'age of the oldest waiting row; 0 when none waits' }),
  }), { description: 'The work queues' }),
  carriers: Type.Array(Type.Object({
    name: Type.String({ description: 'the carrier id (TASMAN_CARRIERS; default for SMPP_*)' }),
    bound: Type.Boolean({ description: 'At least one of its binds is up' }),
    address: Type.Union([Type.String(), Type.Null()], { description: 'its SMSC, host:port' }),
  }), { description: 'the carriers of this process (empty in an API-only process)' }),
  carriers_checked: Type.Boolean({ description: 'false in a process without the worker role: it holds no carrier link' }),
}, { description: 'The pipeline' });

/** Liveness, readiness and Prometheus metrics: for load balancers, orchestrators and monitoring, not tenants. */
export const healthRoutes: FastifyPluginAsyncTypebox<{
  health: HealthService;
  metrics: Metrics;
  adminToken: string | null;
  metricsToken: string | null;
  /** The operator console's session, accepted beside the bearer token on /admin/health. */
  operatorSessions: OperatorSessionAuth;
}> = async (app, { health, metrics, adminToken, metricsToken, operatorSessions }) => {
  app.get('/health', {
    config: { contract: { response: { ok: true } } },
    schema: {
      tags, security: [], summary: 'Liveness: the process answers',
      description: 'Answers 200 while the process can serve HTTP, without touching the database: for a load balancer or an orchestrator\'s liveness probe (restart when it fails). Use /ready to decide whether to send traffic. Public.',
      response: { 200: Type.Object({ ok: Type.Literal(true, { description: 'Always true' }) }, { description: 'Alive' }) },
    },
  }, async () => ({ ok: true as const }));

  app.get('/ready', {
    // 503 when not ready; its body is the Readiness below (documented as such), not the error body.
    config: { contract: { errors: ['service_unavailable'], response: { ready: true, checks: { database: 'ok', migrations: 'ok', carriers: 'ok' }, failed: null } } },
    schema: {
      tags, security: [],
      summary: 'Readiness: the database answers, migrations are applied and (worker role) every carrier is bound',
      description: 'For an orchestrator\'s readiness probe or a load balancer\'s health check: 200 when the process can do its work, 503 with the same body naming the failed check otherwise (take it out of rotation, do not restart it). A process without the worker role does not check carriers. Public; reads only.',
      response: { 200: Readiness, 503: Readiness },
    },
  }, async (_request, reply) => {
    const result = await health.readiness();
    return reply.code(result.ready ? 200 : 503).send(result);
  });

  // The operator console's pipeline panel: the metrics' queue gauges and carrier binds, as JSON.
  await app.register(async (scope) => {
    requireAdminToken(scope, adminToken, operatorSessions);
    scope.get('/admin/health', {
      config: {
        contract: {
          response: {
            queues: [{ queue: 'messages', depth: 12, oldest_seconds: 2 }, { queue: 'webhooks', depth: 0, oldest_seconds: 0 }],
            carriers: [{ name: 'primary', bound: true, address: 'smsc.carrier.example:2775' }], carriers_checked: true,
          },
        },
      },
      schema: {
        tags: ['Operator'], security: [{ adminToken: [] }],
        summary: 'Queue depths, the oldest waiting row\'s age, and carrier binds (the operator console\'s pipeline panel)',
        description: 'How far behind the pipeline is: messages waiting for the carrier and webhook deliveries pending, with the age of the oldest, and whether each carrier is bound; the same figures the metrics export, as JSON for the operator console. Reads only. Operator token or console session.',
        response: { 200: Pipeline },
      },
    }, async () => health.pipeline());
  });

  await app.register(async (scope) => {
    requireAnyToken(scope, [adminToken, metricsToken], 'Metrics are disabled: set METRICS_TOKEN or TASMAN_ADMIN_TOKEN', 'Invalid metrics token');
    scope.get('/metrics', {
      config: { contract: { response: '# HELP tasman_http_requests_total HTTP requests answered, by route pattern and status\n# TYPE tasman_http_requests_total counter\ntasman_http_requests_total{route="/send",status="200"} 1240\n' } },
      schema: {
        tags, security: [{ adminToken: [] }],
        summary: 'Prometheus metrics (text format); the operator token or METRICS_TOKEN as a bearer',
        description: 'The Prometheus exposition of the process: HTTP requests and latency by route, queue depths and ages, carrier binds and submits, receipts, webhook deliveries, database pool. Scrape it with METRICS_TOKEN (or the operator token) as the bearer; disabled (403) when neither is set. Reads only.',
        response: { 200: Type.String() },
      },
    }, async (_request, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.render();
    });
  });
};
