import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SenderService } from './senders.service.ts';

export const SenderList = Type.Object({
  sender_ids: Type.Array(Type.String(), { description: 'Registered Sender IDs this account may send as' }),
}, { description: 'The usable Sender IDs' });

/** The services these routes call, and nothing else. */
export type SenderRoutesDeps = { senders: SenderService };

export const senderRoutes: FastifyPluginAsyncTypebox<SenderRoutesDeps> = async (app, { senders }) => {
  app.get('/senders', {
    config: { contract: { response: { sender_ids: ['HarbourDnt', 'HDGroup'] } }, scope: 'read' },
    schema: {
      tags: ['Account'], summary: 'The Sender IDs the account may use',
      description: 'The alphanumeric Sender IDs the account may put in sender: those the operator registered to its ABN, and its parent\'s when it inherits the parent\'s senders. Its dedicated numbers (GET /numbers) may be used too. Needs the read scope.',
      response: { 200: SenderList },
    },
  }, async (request) => senders.list(request.actor));
};
