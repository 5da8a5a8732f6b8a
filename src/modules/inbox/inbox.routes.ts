import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../compose.ts';
import { INBOX_EXAMPLE, InboxList, InboxQuery } from './inbox.schemas.ts';

export const inboxRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/inbox', {
    config: { contract: { errors: ['invalid_range'], response: INBOX_EXAMPLE }, scope: 'read' },
    schema: {
      tags: ['Inbound and opt-outs'], summary: 'Replies received, newest first', querystring: InboxQuery,
      description: 'Messages received on the account\'s numbers, newest first, with the outbound message each appears to answer. Opt-out and opt-in keywords are listed too, flagged; they have already changed the opt-out list. The message.inbound webhook pushes each one as it arrives. A date_from after date_to answers 400 invalid_range. Needs the read scope.',
      response: { 200: InboxList },
    },
  }, async (request) => services.inbox.list(request.actor, request.query));
};
