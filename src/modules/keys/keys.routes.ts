import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { described, emptyBodyIsObject, Ok, Uuid } from '../../platform/http/schemas.ts';
import type { KeyService } from './keys.service.ts';
import { CreateKey, KEY_CREATED_EXAMPLE, KEY_LIST_EXAMPLE, KeyCreated, KeyList } from './keys.schemas.ts';

const tags = ['API keys'];

/** The services these routes call, and nothing else. */
export type KeyRoutesDeps = { keys: KeyService };

// The caller's own API keys: what the dashboard's Developers page uses (the interface has them only for
// sub-accounts, under /account/{id}/key…). Additions, same shapes as those.
export const keyRoutes: FastifyPluginAsyncTypebox<KeyRoutesDeps> = async (app, { keys }) => {

  app.get('/keys', {
    config: { contract: { response: KEY_LIST_EXAMPLE }, scope: 'read' },
    schema: {
      tags, summary: 'The caller\'s own API keys (never the keys themselves)',
      description: 'Lists every API key of the calling account, revoked ones included, with its prefix, scopes and when it was last used. The secret itself is never shown again after creation. Needs the read scope.',
      response: { 200: KeyList },
    },
  }, async (request) => keys.list(request.actor));

  app.post('/keys', {
    config: { contract: { sample: { body: { name: 'ci', scopes: ['read', 'send'] } }, response: KEY_CREATED_EXAMPLE }, scope: 'manage' },
    preValidation: emptyBodyIsObject,
    schema: {
      tags, summary: 'Issue an API key for the caller\'s own account (shown once)',
      description: 'Creates a key that works at once and answers it in full in `key`: store it now, it is never shown again (only its hash is kept). A key may hold at most the scopes of the key that creates it (403 insufficient_scope otherwise); without `scopes` it holds all three. Needs the manage scope. Not idempotent: each call makes a new key.',
      body: CreateKey, response: { 201: KeyCreated },
    },
  }, async (request, reply) => reply.status(201).send(await keys.create(request.actor, request.body)));

  app.delete('/keys/:keyId', {
    config: { contract: { errors: ['not_found'], response: { ok: true } }, scope: 'manage' },
    schema: {
      tags, summary: 'Revoke one of the caller\'s own API keys',
      description: 'Revokes the key at once: every later request with it answers 401. The key stays listed with its revoked_at. Needs the manage scope. Revoking an already revoked key answers 200 again; another account\'s key id answers 404.',
      params: Type.Object({ keyId: described(Uuid, 'The key\'s id, as GET /keys lists it') }), response: { 200: Ok },
    },
  }, async (request) => keys.revoke(request.actor, request.params.keyId));
};
