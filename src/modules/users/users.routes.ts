import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Ok } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { AccountIdParams, subAccountContract } from '../accounts/accounts.schemas.ts';
import { Access, AccessUpdate, Invite, Invited, MemberParams, TeamMemberParams, UserList } from './users.schemas.ts';

const tags = ['Account management'];

export const userRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { users } = services;

  app.get('/team', {
    config: { scope: 'read' },
    schema: { tags, summary: 'Users of the caller\'s own account', response: { 200: UserList, ...errors(401) } },
  }, async (request) => users.team(request.actor));

  app.post('/team', {
    config: { scope: 'manage' },
    schema: { tags, summary: 'Invite a user to the caller\'s own account', body: Invite, response: { 201: Invited, ...errors(400, 401, 403, 409) } },
  }, async (request, reply) => reply.status(201).send(await users.inviteToTeam(request.actor, request.body)));

  app.delete('/team/:memberId', {
    config: { scope: 'manage' },
    schema: { tags, summary: 'Remove a user from the caller\'s own account', params: TeamMemberParams, response: { 200: Ok, ...errors(400, 401, 403, 404) } },
  }, async (request) => users.removeFromTeam(request.actor, request.params.memberId));

  app.get('/account/:id/users', {
    config: { contract: subAccountContract(), scope: 'read' },
    schema: { tags, summary: 'A sub-account\'s direct users', params: AccountIdParams, response: { 200: UserList } },
  }, async (request) => users.list(request.actor, request.params.id));

  app.post('/account/:id/users', {
    config: { contract: subAccountContract({ sample: { body: { email: 'invitee@example.test' } }, errors: ['email_taken'] }), scope: 'manage' },
    schema: { tags, summary: 'Invite a user to a sub-account', params: AccountIdParams, body: Invite, response: { 201: Invited } },
  }, async (request, reply) => reply.status(201).send(await users.invite(request.actor, request.params.id, request.body)));

  app.delete('/account/:id/users/:memberId', {
    config: { contract: subAccountContract(), scope: 'manage' },
    schema: { tags, summary: 'Remove a user from a sub-account', params: MemberParams, response: { 200: Ok } },
  }, async (request) => users.remove(request.actor, request.params.id, request.params.memberId));

  app.get('/account/:id/access', {
    config: { contract: subAccountContract(), scope: 'read' },
    schema: { tags, summary: 'Who manages a sub-account and who may use it', params: AccountIdParams, response: { 200: Access } },
  }, async (request) => users.access(request.actor, request.params.id));

  app.put('/account/:id/access', {
    config: { contract: subAccountContract({ sample: { body: { team_access_from_parent: true } }, errors: ['not_managed_by_parent'] }), scope: 'manage' },
    schema: { tags, summary: 'Change management and team access of a sub-account', params: AccountIdParams, body: AccessUpdate, response: { 200: Ok } },
  }, async (request) => users.setAccess(request.actor, request.params.id, request.body));
};
