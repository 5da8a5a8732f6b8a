import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../compose.ts';

export const SenderList = Type.Object({
  sender_ids: Type.Array(Type.String(), { description: 'Registered Sender IDs this account may send as' }),
});

export const senderRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/senders', {
    config: { contract: {}, scope: 'read' },
    schema: { tags: ['Account'], summary: 'The Sender IDs the account may use', response: { 200: SenderList } },
  }, async (request) => services.senders.list(request.actor));
};
