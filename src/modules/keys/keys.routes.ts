import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { emptyBodyIsObject, Ok, Uuid } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { CreateKey, KeyCreated, KeyList } from './keys.schemas.ts';

const tags = ['API keys'];

// The caller's own API keys: what the dashboard's Developers page uses (the interface has them only for
// sub-accounts, under /account/{id}/key…). Additions, same shapes as those.
export const keyRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const keys = services.accountKeys.own;

  app.get('/keys', {
    config: { contract: {}, scope: 'read' },
    schema: { tags, summary: 'The caller\'s own API keys (never the keys themselves)', response: { 200: KeyList } },
  }, async (request) => keys.list(request.actor));

  app.post('/keys', {
    config: { contract: { sample: { body: { name: 'ci' } } }, scope: 'manage' },
    preValidation: emptyBodyIsObject,
    schema: { tags, summary: 'Issue an API key for the caller\'s own account (shown once)', body: CreateKey, response: { 201: KeyCreated } },
  }, async (request, reply) => reply.status(201).send(await keys.create(request.actor, request.body)));

  app.delete('/keys/:keyId', {
    config: { contract: { errors: ['not_found'] }, scope: 'manage' },
    schema: { tags, summary: 'Revoke one of the caller\'s own API keys', params: Type.Object({ keyId: Uuid }), response: { 200: Ok } },
  }, async (request) => keys.revoke(request.actor, request.params.keyId));
};
