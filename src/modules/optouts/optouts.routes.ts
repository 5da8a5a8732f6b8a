import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Timestamp } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';

const OptoutList = Type.Object({
  optouts: Type.Array(Type.Object({
    number: Type.String(), created_at: Timestamp, source: Type.String({ description: 'keyword, link or api' }),
  })),
});

export const optoutRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/optouts', {
    schema: { tags: ['Inbound and opt-outs'], summary: 'The account\'s opt-out list', response: { 200: OptoutList, ...errors(401) } },
  }, async (request) => services.optouts.list(request.actor));
};
