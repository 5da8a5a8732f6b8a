import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAdminToken, requireAnyToken, type OperatorSessionAuth } from '../../platform/http/auth.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { HealthService } from './health.service.ts';

const tags = ['Operations'];

const Readiness = Type.Object({
  ready: Type.Boolean(),
  checks: Type.Object({
    database: Type.String({ description: 'ok or failed' }),
    migrations: Type.String({ description: 'ok, pending, or unknown when the database does not answer' }),
    carriers: Type.String({ description: 'ok, unbound, or not_checked in a process without the worker role' }),
  }),
  failed: Type.Union([Type.String(), Type.Null()], { description: 'the first failed check, in words' }),
});

const Pipeline = Type.Object({
  queues: Type.Array(Type.Object({
    queue: Type.String({ description: 'messages (queued for the carrier) or webhooks (deliveries pending)' }),
    depth: Type.Integer({ description: 'rows waiting' }),
    oldest_seconds: Type.Integer({ description: 'age of the oldest waiting row; 0 when none waits' }),
  })),
  carriers: Type.Array(Type.Object({
    name: Type.String({ description: 'the carrier id (TASMAN_CARRIERS; default for SMPP_*)' }),
    bound: Type.Boolean(),
    address: Type.Union([Type.String(), Type.Null()], { description: 'its SMSC, host:port' }),
  }), { description: 'the carriers of this process (empty in an API-only process)' }),
  carriers_checked: Type.Boolean({ description: 'false in a process without the worker role: it holds no carrier link' }),
});

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
    schema: {
      tags, security: [], summary: 'Liveness: the process answers',
      response: { 200: Type.Object({ ok: Type.Literal(true) }) },
    },
  }, async () => ({ ok: true as const }));

  app.get('/ready', {
    schema: {
      tags, security: [],
      summary: 'Readiness: the database answers, migrations are applied and (worker role) every carrier is bound',
      description: '200 when ready; 503 with the same body naming the failed check otherwise.',
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
      config: { contract: {} },
      schema: {
        tags: ['Operator'], security: [{ adminToken: [] }],
        summary: 'Queue depths, the oldest waiting row\'s age, and carrier binds (the operator console\'s pipeline panel)',
        response: { 200: Pipeline },
      },
    }, async () => health.pipeline());
  });

  await app.register(async (scope) => {
    requireAnyToken(scope, [adminToken, metricsToken], 'Metrics are disabled: set METRICS_TOKEN or TASMAN_ADMIN_TOKEN', 'Invalid metrics token');
    scope.get('/metrics', {
      config: { contract: {} },
      schema: {
        tags, security: [{ adminToken: [] }],
        summary: 'Prometheus metrics (text format); the operator token or METRICS_TOKEN as a bearer',
        response: { 200: Type.String() },
      },
    }, async (_request, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.render();
    });
  });
};
