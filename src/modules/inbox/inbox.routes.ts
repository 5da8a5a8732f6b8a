import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../compose.ts';
import { InboxList, InboxQuery } from './inbox.schemas.ts';

export const inboxRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/inbox', {
    config: { contract: { errors: ['invalid_range'] }, scope: 'read' },
    schema: {
      tags: ['Inbound and opt-outs'], summary: 'Replies received, newest first', querystring: InboxQuery,
      response: { 200: InboxList },
    },
  }, async (request) => services.inbox.list(request.actor, request.query));
};
