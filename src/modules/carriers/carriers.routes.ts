import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAdminToken } from '../../platform/http/auth.ts';
import type { Services } from '../../compose.ts';
import { OPERATOR_COOKIE } from '../sessions/sessions.routes.ts';

const tags = ['Operator'];
const security = [{ adminToken: [] }];
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const BindState = Type.Union([Type.Literal('bound'), Type.Literal('connecting'), Type.Literal('down')]);

const Route = Type.Object({
  country: Type.Optional(Type.Array(Type.String())), prefix: Type.Optional(Type.Array(Type.String())),
  sender: Type.Optional(Type.String()), account: Type.Optional(Type.Array(Type.String())),
  carriers: Type.Array(Type.String(), { description: 'most preferred first; the next takes over while one is down' }),
});

const Carriers = Type.Object({
  carriers: Type.Array(Type.Object({
    id: Type.String(), address: Type.String(), state: Type.Union([Type.Literal('bound'), Type.Literal('down')]),
    available: Type.Boolean({ description: 'takes new messages: bound and not refusing with system errors past its failover time' }),
    system_errors_since: Nullable(Type.String()), in_flight: Type.Integer(), submits_per_second: Type.Number(), errors: Type.Integer(),
    receipts_waiting: Type.Integer({ description: 'sent messages on this carrier still without a final receipt' }),
    receipt_ids: Type.Object({
      submit_id_base: Type.String({ description: 'how submit_sm_resp ids are read: configured, learnt, or still auto' }),
      receipt_id_base: Type.String({ description: 'how receipt ids are read: configured, learnt, or still auto' }),
      conflicts: Type.Integer({ description: 'receipts since start whose id matched several messages as hex and as decimal (none applied)' }),
      conflict_sample: Nullable(Type.String()),
      unmatched: Type.Integer({ description: 'parked receipts no message has held for a minute' }),
      unmatched_oldest_seconds: Nullable(Type.Number()),
      unmatched_sample: Nullable(Type.String()),
    }),
    binds: Type.Array(Type.Object({
      index: Type.Integer(), state: BindState, last_error: Nullable(Type.String()), in_flight: Type.Integer(), pending: Type.Integer(),
      submits_per_second: Type.Number(), submitted: Type.Integer(), errors: Type.Integer(), receipts_waiting: Type.Integer(),
      tps: Nullable(Type.Number({ description: 'submits per second this bind runs at: the configured TPS until the SMSC throttles, then the rate it settled at; null when unpaced' })),
      throttled: Type.Integer({ description: 'throttling answers (ESME_RTHROTTLED, ESME_RMSGQFUL) since start; each throttled submit went again' }),
      receiver: Type.Optional(BindState),
    })),
  })),
  routes: Type.Array(Route),
  unserved_countries: Type.Array(Type.String(), { description: 'countries a route names whose carriers are all down' }),
});

/** The operator's carriers and routes: this process's, or in a `tasman start` cluster the workers process's (relayed); 404 on a process that runs no workers outside one. */
export const carrierRoutes: FastifyPluginAsyncTypebox<{ services: Services; adminToken: string | null }> = async (app, { services, adminToken }) => {
  requireAdminToken(app, adminToken, { cookie: OPERATOR_COOKIE, authenticate: services.sessions.authenticateOperator, failed: services.addressThrottle.failed });

  // not_found: this process runs no carriers; service_unavailable: the workers process did not answer the relay.
  app.get('/admin/carriers', {
    config: { contract: { errors: ['not_found', 'service_unavailable'] } },
    schema: {
      tags, security, summary: 'Carriers and binds of this process: state, in flight, submits/s, errors, receipts waiting; the routes',
      response: { 200: Carriers },
    },
  }, async () => services.carrierAdmin.view());

  app.post('/admin/carriers/routes/reload', {
    config: { contract: { errors: ['not_found', 'service_unavailable', 'conflict'] } },
    schema: {
      tags, security, summary: 'Re-read the routes from TASMAN_CARRIERS without a restart (carriers themselves need one)',
      response: { 200: Type.Object({ routes: Type.Array(Route) }) },
    },
  }, async () => services.carrierAdmin.reloadRoutes());
};
