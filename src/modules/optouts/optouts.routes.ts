import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Timestamp } from '../../platform/http/schemas.ts';
import type { Services } from '../../services.ts';
import { listOptouts } from './optouts.repo.ts';
import { balanceOf } from '../credits/ledger.repo.ts';

const OptoutList = Type.Object({
  optouts: Type.Array(Type.Object({
    number: Type.String(), created_at: Timestamp, source: Type.String({ description: 'keyword, link or api' }),
  })),
});

// Two read-only endpoints small enough to need no service of their own: they read the caller's own rows.
export const optoutRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/optouts', {
    schema: { tags: ['Inbound and opt-outs'], summary: 'The account\'s opt-out list', response: { 200: OptoutList, ...errors(401) } },
  }, async (request) => {
    const list = await listOptouts(services.db, request.actor.accountId);
    return { optouts: list.map((o) => ({ number: o.number, created_at: o.createdAt.toISOString(), source: o.source })) };
  });

  app.get('/balance', {
    schema: { tags: ['Account'], summary: 'Credits available', response: { 200: Type.Object({ credits: Type.Integer() }), ...errors(401) } },
  }, async (request) => ({ credits: (await balanceOf(services.db, request.actor.accountId)) ?? 0 }));
};
