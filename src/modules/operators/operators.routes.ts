import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../platform/http/schemas.ts';
import { operatorOf } from '../../platform/http/auth.ts';
import { operatorActor } from '../../platform/audit/entry.ts';
import type { OperatorService } from './operators.service.ts';
import { Operator, OperatorCreate, OperatorCreated, OperatorList, OperatorListQuery, OPERATOR_EXAMPLE, SetupLink, SETUP_URL_EXAMPLE } from './operators.schemas.ts';

const tags = ['Operator'];
const security = [{ adminToken: [] }];

/** The services these routes call, and nothing else. */
export type OperatorRoutesDeps = { operators: OperatorService };

/** Named operators (POST/GET /admin/operators, DELETE /admin/operators/{id}); registered inside the operator routes. */
export const operatorRoutes: FastifyPluginAsyncTypebox<OperatorRoutesDeps> = async (app, { operators }) => {
  // conflict: a live operator has that name already.
  app.post('/admin/operators', {
    config: { contract: { sample: { body: { name: 'Priya Raman' } }, errors: ['conflict'], response: { ...OPERATOR_EXAMPLE, token: 'tso_q3Zr8LkWcY1vN0pA7sD2fG5hJ9kL4mX6', setup_url: SETUP_URL_EXAMPLE } } },
    schema: {
      tags, security, summary: 'Add a named operator, with a token of their own',
      description: 'Creates an operator token for one person: they use it as the operator bearer token (the CLI reads it from TASMAN_ADMIN_TOKEN), every change they make is recorded in the audit log under their name, and removing them revokes it alone. The token is shown once. The setup link opens the console page where they choose a password and enrol an authenticator app, after which they sign in to the console with their name, password and a code. 409 when a live operator has that name. Operator token or console session.',
      body: OperatorCreate, response: { 201: OperatorCreated },
    },
  }, async (request, reply) => reply.status(201).send(await operators.add(operatorActor(request.ip, operatorOf(request)), request.body)));

  app.get('/admin/operators', {
    config: { contract: { response: { operators: [OPERATOR_EXAMPLE], total: 1 } } },
    schema: {
      tags, security, summary: 'The named operators', description: 'Every live named operator, oldest first (with include_revoked, removed ones too). Tokens are never shown. Reads only. Operator token or console session.',
      querystring: OperatorListQuery, response: { 200: OperatorList },
    },
  }, async (request) => operators.list(request.query));

  app.post('/admin/operators/:id/setup-link', {
    config: { contract: { errors: ['not_found'], response: { setup_url: SETUP_URL_EXAMPLE } } },
    schema: {
      tags, security, summary: 'A new console setup link for an operator who lost their password or authenticator',
      description: 'Clears the operator\'s console password and second factor, ends their console sessions, and answers a new setup link (valid 7 days, once) where they choose a password and enrol an authenticator again. Their token keeps working. 404 when no live operator has that id. Operator token or console session.',
      params: IdParams, response: { 200: SetupLink },
    },
  }, async (request) => operators.newSetupLink(operatorActor(request.ip, operatorOf(request)), request.params.id));

  app.delete('/admin/operators/:id', {
    config: { contract: { errors: ['not_found'], response: { ...OPERATOR_EXAMPLE, revoked_at: OPERATOR_EXAMPLE.created_at } } },
    schema: {
      tags, security, summary: 'Remove a named operator: their token stops working at once',
      description: 'Revokes the operator\'s token; their next request is refused (401). Their entries in the audit log stay under their name. 404 when no live operator has that id. Operator token or console session.',
      params: IdParams, response: { 200: Operator },
    },
  }, async (request) => operators.remove(operatorActor(request.ip, operatorOf(request)), request.params.id));
};
