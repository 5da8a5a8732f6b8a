import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { InboxList, InboxQuery } from './inbox.schemas.ts';

export const inboxRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/inbox', {
    config: { scope: 'read' },
    schema: {
      tags: ['Inbound and opt-outs'], summary: 'Replies received, newest first', querystring: InboxQuery,
      response: { 200: InboxList, ...errors(400, 401) },
    },
  }, async (request) => services.inbox.list(request.actor, request.query));
};
