import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Ok, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import type { OptoutService } from './optouts.service.ts';

const Optout = Type.Object({
  number: Type.String({ description: 'E.164' }),
  created_at: described(Timestamp, 'When it opted out'),
  source: Type.String({ description: 'keyword (a reply), link (the one-tap page) or api' }),
  inbound_message_id: nullable(Uuid, 'The reply that caused it (source keyword), or null'),
  inbound_body: nullable(Type.String(), 'The reply that caused it, while its body is retained'),
  message_id: nullable(Uuid, 'The message whose opt-out link was used (source link), or null'),
  contact_name: nullable(Type.String(), 'The name of the account\'s contact with this number (first and last), read when listed; null when no contact has it'),
}, { description: 'A number on the opt-out list' });

export const OptoutList = Type.Object({
  optouts: Type.Array(Optout, { description: 'The list (or the page), newest first' }),
  next_cursor: nullable(Type.String(), 'With limit or cursor: the next page\'s cursor, null on the last page'),
}, { description: 'The opt-out list' });

export const OptoutQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size; without limit and cursor the whole list' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page' })),
});

const OptoutNumber = Type.String({ minLength: 1, maxLength: 40, description: 'An AU or NZ mobile in any accepted form (E.164, international digits or local 04…)' });
export const NumberBody = Type.Object({ number: OptoutNumber }, { description: 'The number to add' });
const NumberParams = Type.Object({ number: OptoutNumber });
export const AddResult = Type.Object({
  created: Type.Boolean({ description: 'false when it was already listed' }), optout: Optout,
}, { description: 'The number is on the list (201 when added now, 200 when it already was)' });
const OPTOUT_EXAMPLE = { number: '+61412345678', created_at: EX.later, source: 'api', inbound_message_id: null, inbound_body: null, message_id: null, contact_name: 'Ana Silva' };

const tags = ['Inbound and opt-outs'];

/** The services these routes call, and nothing else. */
export type OptoutRoutesDeps = { optouts: OptoutService };

export const optoutRoutes: FastifyPluginAsyncTypebox<OptoutRoutesDeps> = async (app, { optouts }) => {
  app.get('/optouts', {
    config: {
      contract: {
        response: { optouts: [{ ...OPTOUT_EXAMPLE, source: 'keyword', inbound_message_id: EX.inbound, inbound_body: 'STOP' }], next_cursor: null },
      },
      scope: 'read',
    },
    schema: {
      tags, summary: 'The account\'s opt-out list, newest first',
      description: 'Every number that may not be sent to, with how it got there: a keyword reply (STOP…), the one-tap opt-out link, or the API. Sends to them are refused (400 recipient_opted_out; skipped in a batch) before any charge. Without limit and cursor the whole list comes in one answer; with them, pages. Needs the read scope.',
      querystring: OptoutQuery, response: { 200: OptoutList },
    },
  }, async (request) => optouts.list(request.actor, request.query));

  app.post('/optouts', {
    config: { contract: { sample: { body: { number: '0412 345 678' } }, response: { created: false, optout: OPTOUT_EXAMPLE }, errors: ['invalid_number'] }, scope: 'send' },
    schema: {
      tags, summary: 'Add a number to the opt-out list (source api)',
      description: 'Puts a number on the account\'s opt-out list (for an opt-out received another way: a call, an email), recorded in the audit with source api. Idempotent: a number already listed answers 200 with created false and keeps its first record; a new one answers 201. Needs the send scope.',
      body: NumberBody, response: { 200: AddResult, 201: AddResult },
    },
  }, async (request, reply) => {
    const result = await optouts.add(request.actor, request.body.number);
    return reply.code(result.created ? 201 : 200).send(result);
  });

  app.get('/optouts/export', {
    config: { contract: {}, scope: 'read' },
    schema: {
      tags, summary: 'The opt-out audit as CSV: every opt-out and opt-in, oldest first',
      description: 'Downloads the account\'s whole opt-out history as CSV (an attachment, optouts.csv): every opt-out and opt-in with its source and the text that caused it, oldest first, including numbers since removed from the list. For compliance records. Needs the read scope.',
      response: {
        200: { description: 'number,action,source,raw_text,received_at,inbound_message_id,message_id', content: { 'text/csv': { schema: Type.String() } } },
      },
    },
  }, async (request, reply) => {
    const csv = await optouts.exportCsv(request.actor);
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="optouts.csv"').send(csv);
  });

  app.delete('/optouts/:number', {
    config: { contract: { errors: ['not_found'], response: { ok: true } }, scope: 'manage' },
    schema: {
      tags, summary: 'Remove a number from the opt-out list (the audit keeps it)',
      description: 'Takes a number off the opt-out list so it can be sent to again (only with the person\'s consent); the removal is recorded in the audit. A number not on the list answers 404. Needs the manage scope.',
      params: NumberParams, response: { 200: Ok },
    },
  }, async (request) => optouts.remove(request.actor, request.params.number));
};
