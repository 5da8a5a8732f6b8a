import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../compose.ts';

export const creditRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/balance', {
    config: { contract: {}, scope: 'read' },
    schema: { tags: ['Account'], summary: 'Credits available', response: { 200: Type.Object({ credits: Type.Integer() }) } },
  }, async (request) => services.credits.balance(request.actor));
};
