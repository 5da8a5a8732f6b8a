import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, IdParams } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { SendResult, sendErrors } from '../messages/messages.schemas.ts';
import { InboxList, InboxQuery, ReplyRequest } from './inbox.schemas.ts';

export const inboxRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/inbox', {
    config: { scope: 'read' },
    schema: {
      tags: ['Inbound and opt-outs'], summary: 'Replies received, newest first', querystring: InboxQuery,
      response: { 200: InboxList, ...errors(400, 401) },
    },
  }, async (request) => services.inbox.list(request.actor, request.query));

  app.post('/inbox/:id/reply', {
    config: { scope: 'send' },
    schema: {
      tags: ['Inbound and opt-outs'], summary: 'Reply to an inbound message (a send to its sender, charged as one)',
      params: IdParams, body: ReplyRequest, response: { 200: SendResult, ...sendErrors, ...errors(404) },
    },
  }, async (request) => services.replies.reply(request.actor, request.params.id, request.body));
};
