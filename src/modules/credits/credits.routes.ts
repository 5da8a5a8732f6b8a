import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CreditService } from './credits.service.ts';

/** The services these routes call, and nothing else. */
export type CreditRoutesDeps = { credits: CreditService };

export const creditRoutes: FastifyPluginAsyncTypebox<CreditRoutesDeps> = async (app, { credits }) => {
  app.get('/balance', {
    config: { contract: { response: { credits: 998 } }, scope: 'read' },
    schema: {
      tags: ['Account'], summary: 'Credits available',
      description: 'The calling account\'s credit balance: one credit pays for one message part, and sends are refused 402 insufficient_credits when it would not cover them. Credits come from the operator or a parent account. Needs the read scope.',
      response: { 200: Type.Object({ credits: Type.Integer({ description: 'Credits available now' }) }, { description: 'The balance' }) },
    },
  }, async (request) => credits.balance(request.actor));
};
