import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAdminToken, type OperatorSessionAuth } from '../../platform/http/auth.ts';
import { described, nullable } from '../../platform/http/schemas.ts';
import type { CarrierAdminService } from './carriers.service.ts';

const tags = ['Operator'];
const security = [{ adminToken: [] }];
const BindState = Type.Union([Type.Literal('bound'), Type.Literal('connecting'), Type.Literal('down')], { description: 'bound, connecting or down' });
const int = (description: string) => Type.Integer({ description });
const num = (description: string) => Type.Number({ description });

const Route = Type.Object({
  country: Type.Optional(Type.Array(Type.String(), { description: 'Destination countries it matches (AU, NZ)' })),
  prefix: Type.Optional(Type.Array(Type.String(), { description: 'Destination number prefixes it matches (E.164 digits)' })),
  sender: Type.Optional(Type.String({ description: 'The sender it matches' })),
  account: Type.Optional(Type.Array(Type.String(), { description: 'The accounts it matches' })),
  carriers: Type.Array(Type.String(), { description: 'most preferred first; the next takes over while one is down' }),
}, { description: 'A route: which messages go to which carriers (the first route that matches wins)' });

const Carriers = Type.Object({
  carriers: Type.Array(Type.Object({
    id: Type.String({ description: 'The carrier\'s id (TASMAN_CARRIERS; default for SMPP_*)' }), address: Type.String({ description: 'Its SMSC, host:port' }),
    state: Type.Union([Type.Literal('bound'), Type.Literal('down')], { description: 'bound: at least one bind is up; down otherwise' }),
    available: Type.Boolean({ description: 'takes new messages: bound and not refusing with system errors past its failover time' }),
    system_errors_since: nullable(Type.String(), 'Since when it refuses submits with system errors; null while it does not'),
    in_flight: int('Submits sent and not yet answered'), submits_per_second: num('Recent submit rate'), errors: int('Submits refused since start'),
    receipts_waiting: Type.Integer({ description: 'sent messages on this carrier still without a final receipt' }),
    receipt_ids: Type.Object({
      submit_id_base: Type.String({ description: 'how submit_sm_resp ids are read: configured, learnt, or still auto' }),
      receipt_id_base: Type.String({ description: 'how receipt ids are read: configured, learnt, or still auto' }),
      conflicts: Type.Integer({ description: 'receipts since start whose id matched several messages as hex and as decimal (none applied)' }),
      conflict_sample: nullable(Type.String(), 'One such receipt id, or null'),
      unmatched: Type.Integer({ description: 'parked receipts no message has held for a minute' }),
      unmatched_oldest_seconds: nullable(Type.Number(), 'Age of the oldest unmatched receipt, or null'),
      unmatched_sample: nullable(Type.String(), 'One unmatched receipt id, or null'),
    }, { description: 'How this carrier\'s message ids are read, and receipts that matched no message' }),
    binds: Type.Array(Type.Object({
      index: int('The bind\'s number, from 0'), state: BindState, last_error: nullable(Type.String(), 'Why it last went down, or null'),
      in_flight: int('Submits sent on it and not yet answered'), pending: int('Messages waiting for a window on it'),
      submits_per_second: num('Recent submit rate'), submitted: int('Submits since start'), errors: int('Submits refused since start'),
      receipts_waiting: int('Its sent messages still without a final receipt'),
      tps: nullable(Type.Number(), 'submits per second this bind runs at: the configured TPS until the SMSC throttles, then the rate it settled at; null when unpaced'),
      throttled: Type.Integer({ description: 'throttling answers (ESME_RTHROTTLED, ESME_RMSGQFUL) since start; each throttled submit went again' }),
      throttled_now: Type.Boolean({ description: 'it runs at the SMSC\'s pace (tps) now, not its configured TPS: the SMSC\'s throttling holds it below that TPS (an unpaced bind: it was throttled), or throttled it within the last 10 s' }),
      receiver: Type.Optional(described(BindState, 'The state of its separate receiver bind, when it uses one')),
    }), { description: 'Its SMPP binds' }),
  }), { description: 'Each carrier of this process' }),
  routes: Type.Array(Route, { description: 'The routes, in order' }),
  unserved_countries: Type.Array(Type.String(), { description: 'countries a route names whose carriers are all down' }),
}, { description: 'The carriers and routes' });
const ROUTES_EXAMPLE = [{ country: ['AU', 'NZ'], carriers: ['primary', 'backup'] }];

/** The operator's carriers and routes: this process's, or in a `tasman start` cluster the workers process's (relayed); 404 on a process that runs no workers outside one. */
/** What these routes use, and nothing else. */
export type CarrierRoutesDeps = { carrierAdmin: CarrierAdminService; adminToken: string | null; operatorSessions: OperatorSessionAuth };

export const carrierRoutes: FastifyPluginAsyncTypebox<CarrierRoutesDeps> = async (app, { carrierAdmin, adminToken, operatorSessions }) => {
  requireAdminToken(app, adminToken, operatorSessions);

  // not_found: this process runs no carriers; service_unavailable: the workers process did not answer the relay.
  app.get('/admin/carriers', {
    config: {
      contract: {
        errors: ['not_found', 'service_unavailable'],
        response: {
          carriers: [{
            id: 'primary', address: 'smsc.carrier.example:2775', state: 'bound', available: true, system_errors_since: null, in_flight: 3,
            submits_per_second: 41.5, errors: 0, receipts_waiting: 118,
            receipt_ids: {
              submit_id_base: 'hex', receipt_id_base: 'hex', conflicts: 0, conflict_sample: null, unmatched: 0, unmatched_oldest_seconds: null, unmatched_sample: null,
            },
            binds: [{
              index: 0, state: 'bound', last_error: null, in_flight: 3, pending: 0, submits_per_second: 41.5, submitted: 182_004, errors: 0,
              receipts_waiting: 118, tps: 50, throttled: 0, throttled_now: false,
            }],
          }],
          routes: ROUTES_EXAMPLE, unserved_countries: [],
        },
      },
    },
    schema: {
      tags, security, summary: 'Carriers and binds of this process: state, in flight, submits/s, errors, receipts waiting; the routes',
      description: 'The live state of the SMPP links: each carrier and each of its binds (up or down, in flight, rate, pacing, errors, receipts still awaited), how receipt ids are read, and the routes with any country left without a working carrier. In a tasman start cluster the workers process answers through the API process. 404 where no carriers run; 503 when the workers process does not answer. Reads only. Operator token or console session.',
      response: { 200: Carriers },
    },
  }, async () => carrierAdmin.view());

  app.post('/admin/carriers/routes/reload', {
    config: { contract: { errors: ['not_found', 'service_unavailable', 'conflict'], response: { routes: ROUTES_EXAMPLE } } },
    schema: {
      tags, security, summary: 'Re-read the routes from TASMAN_CARRIERS without a restart (carriers themselves need one)',
      description: 'Reads the carriers file again and switches to its routes at once, for messages not yet submitted; adding or changing carriers still needs a restart. A file that does not parse or does not hold, or TASMAN_CARRIERS unset, answers 409 conflict and the routes in force stay. Idempotent. Operator token or console session.',
      response: { 200: Type.Object({ routes: Type.Array(Route, { description: 'The routes now in force, in order' }) }, { description: 'The routes are reloaded' }) },
    },
  }, async () => carrierAdmin.reloadRoutes());

  const ids = (description: string) => Type.Array(Type.String(), { description });
  app.post('/admin/carriers/reload', {
    config: {
      contract: {
        errors: ['service_unavailable', 'conflict'],
        response: { here: { added: ['backup'], changed: ['primary'], removed: [], unchanged: [], routes: ROUTES_EXAMPLE }, others_notified: true },
      },
    },
    schema: {
      tags, security, summary: 'Re-read TASMAN_CARRIERS and apply it without a restart, on every instance',
      description: 'Reads the carriers file again and applies it to the carriers this instance runs: a new carrier binds, a changed one binds afresh and its old binds drain (out of routing at once, their submits in flight answered, then unbound), a removed one drains, an unchanged one keeps its binds; the routes switch for every message not yet submitted. Then every other process that runs carriers on the same database is told (PostgreSQL NOTIFY) and does the same with its own file, logging the outcome. A file that does not parse or does not hold answers 409 conflict and nothing changes; `here` is null where this instance runs no carriers. Operator token or console session.',
      response: {
        200: Type.Object({
          here: nullable(Type.Object({
            added: ids('Carriers that bound for the first time'), changed: ids('Carriers whose settings changed: bound afresh, the old binds drained'),
            removed: ids('Carriers no longer in the file: drained'), unchanged: ids('Carriers that kept their binds'),
            routes: Type.Array(Route, { description: 'The routes now in force, in order' }),
          }, { description: 'What this instance did' }), 'What this instance did; null where it runs no carriers'),
          others_notified: Type.Boolean({ description: 'The other processes running carriers on this database were told to reload theirs' }),
        }, { description: 'The carriers are reloaded' }),
      },
    },
  }, async () => carrierAdmin.reloadCarriers());
};
