import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { described, Ok, Uuid } from '../../platform/http/schemas.ts';
import type { SmppCredentialService } from './smpp-credentials.service.ts';
import {
  CreateSmppCredential, SMPP_CREDENTIAL_CREATED_EXAMPLE, SMPP_CREDENTIAL_LIST_EXAMPLE, SmppCredentialCreated, SmppCredentialList,
} from './smpp-credentials.schemas.ts';

const tags = ['SMPP'];

/** The services these routes call, and nothing else. */
export type SmppCredentialRoutesDeps = { smppCredentials: SmppCredentialService };

// Credentials for the customer's own SMPP clients (docs/smpp-server.md). Additions to the interface.
export const smppCredentialRoutes: FastifyPluginAsyncTypebox<SmppCredentialRoutesDeps> = async (app, { smppCredentials }) => {
  const credentials = smppCredentials;

  app.get('/smpp-credentials', {
    config: { contract: { response: SMPP_CREDENTIAL_LIST_EXAMPLE }, scope: 'read' },
    schema: {
      tags, summary: 'The account\'s SMPP credentials (never their passwords)',
      description: 'Lists every SMPP credential of the calling account, revoked ones included, newest first, with its system_id, limits and when a bind last used it. Needs the read scope.',
      response: { 200: SmppCredentialList },
    },
  }, async (request) => credentials.list(request.actor));

  app.post('/smpp-credentials', {
    config: { contract: { sample: { body: { name: 'reseller platform', allowed_ips: ['203.0.113.0/24'], max_binds: 2, tps: 10 } }, response: SMPP_CREDENTIAL_CREATED_EXAMPLE }, scope: 'manage' },
    schema: {
      tags, summary: 'Issue an SMPP credential (its password shown once)',
      description: 'Creates a system_id and password for binding to Tasman\'s SMPP server; the password is in this response only (a hash is kept). A bind with it sends with the account\'s send permission, so the caller needs send as well as manage (403 otherwise). Not idempotent: each call makes a new credential.',
      body: CreateSmppCredential, response: { 201: SmppCredentialCreated },
    },
  }, async (request, reply) => reply.status(201).send(await credentials.create(request.actor, request.body)));

  app.delete('/smpp-credentials/:credentialId', {
    config: { contract: { errors: ['not_found'], response: { ok: true } }, scope: 'manage' },
    schema: {
      tags, summary: 'Revoke an SMPP credential; its binds close at once',
      description: 'Revokes the credential: its open binds on every instance are closed at once and later binds answer ESME_RINVSYSID. It stays listed with its revoked_at. Revoking an already revoked credential answers 200 again; another account\'s id answers 404. Needs the manage scope.',
      params: Type.Object({ credentialId: described(Uuid, 'The credential\'s id, as GET /smpp-credentials lists it') }), response: { 200: Ok },
    },
  }, async (request) => credentials.revoke(request.actor, request.params.credentialId));
};
