import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Ok, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Optout = Type.Object({
  number: Type.String({ description: 'E.164' }),
  created_at: Timestamp,
  source: Type.String({ description: 'keyword (a reply), link (the one-tap page) or api' }),
  inbound_message_id: Nullable(Uuid),
  inbound_body: Nullable(Type.String({ description: 'The reply that caused it, while its body is retained' })),
  message_id: Nullable(Uuid),
});

export const OptoutList = Type.Object({
  optouts: Type.Array(Optout),
  next_cursor: Nullable(Type.String({ description: 'With limit or cursor: the next page\'s cursor, null on the last page' })),
});

export const OptoutQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size; without limit and cursor the whole list' })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});

export const NumberBody = Type.Object({ number: Type.String({ minLength: 1, maxLength: 40 }) });
const NumberParams = Type.Object({ number: Type.String({ minLength: 1, maxLength: 40 }) });
export const AddResult = Type.Object({ created: Type.Boolean({ description: 'false when it was already listed' }), optout: Optout });

const tags = ['Inbound and opt-outs'];

export const optoutRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/optouts', {
    config: { contract: {}, scope: 'read' },
    schema: { tags, summary: 'The account\'s opt-out list, newest first', querystring: OptoutQuery, response: { 200: OptoutList } },
  }, async (request) => services.optouts.list(request.actor, request.query));

  app.post('/optouts', {
    config: { contract: { sample: { body: { number: '+61412345678' } }, errors: ['invalid_number'] }, scope: 'send' },
    schema: { tags, summary: 'Add a number to the opt-out list (source api)', body: NumberBody, response: { 200: AddResult, 201: AddResult } },
  }, async (request, reply) => {
    const result = await services.optouts.add(request.actor, request.body.number);
    return reply.code(result.created ? 201 : 200).send(result);
  });

  app.get('/optouts/export', {
    config: { contract: {}, scope: 'read' },
    schema: {
      tags, summary: 'The opt-out audit as CSV: every opt-out and opt-in, oldest first',
      response: {
        200: { description: 'number,action,source,raw_text,received_at,inbound_message_id,message_id', content: { 'text/csv': { schema: Type.String() } } },
      },
    },
  }, async (request, reply) => {
    const csv = await services.optouts.exportCsv(request.actor);
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="optouts.csv"').send(csv);
  });

  app.delete('/optouts/:number', {
    config: { contract: { errors: ['not_found'] }, scope: 'manage' },
    schema: { tags, summary: 'Remove a number from the opt-out list (the audit keeps it)', params: NumberParams, response: { 200: Ok } },
  }, async (request) => services.optouts.remove(request.actor, request.params.number));
};
