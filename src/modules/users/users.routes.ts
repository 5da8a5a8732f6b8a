import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Ok } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { AccountIdParams, subAccountContract, subAccountWriteContract } from '../accounts/accounts.schemas.ts';
import { Access, AccessUpdate, Invite, Invited, MemberParams, TeamMemberParams, UserList } from './users.schemas.ts';

const tags = ['Account management'];

export const userRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { users } = services;

  app.get('/team', {
    config: { contract: {}, scope: 'read' },
    schema: { tags, summary: 'Users of the caller\'s own account', response: { 200: UserList } },
  }, async (request) => users.team(request.actor));

  app.post('/team', {
    // A member may grant only the permissions it holds (permission_denied).
    config: { contract: { sample: { body: { email: 'colleague@example.test' } }, errors: ['permission_denied', 'email_taken'] }, scope: 'manage' },
    schema: { tags, summary: 'Invite a user to the caller\'s own account', body: Invite, response: { 201: Invited } },
  }, async (request, reply) => reply.status(201).send(await users.inviteToTeam(request.actor, request.body)));

  app.delete('/team/:memberId', {
    // forbidden: removing oneself.
    config: { contract: { errors: ['forbidden', 'not_found'] }, scope: 'manage' },
    schema: { tags, summary: 'Remove a user from the caller\'s own account', params: TeamMemberParams, response: { 200: Ok } },
  }, async (request) => users.removeFromTeam(request.actor, request.params.memberId));

  app.get('/account/:id/users', {
    config: { contract: subAccountContract(), scope: 'read' },
    schema: { tags, summary: 'A sub-account\'s direct users', params: AccountIdParams, response: { 200: UserList } },
  }, async (request) => users.list(request.actor, request.params.id));

  app.post('/account/:id/users', {
    config: { contract: subAccountWriteContract({ sample: { body: { email: 'invitee@example.test' } }, errors: ['email_taken'] }), scope: 'manage' },
    schema: { tags, summary: 'Invite a user to a sub-account', params: AccountIdParams, body: Invite, response: { 201: Invited } },
  }, async (request, reply) => reply.status(201).send(await users.invite(request.actor, request.params.id, request.body)));

  app.delete('/account/:id/users/:memberId', {
    config: { contract: subAccountWriteContract(), scope: 'manage' },
    schema: { tags, summary: 'Remove a user from a sub-account', params: MemberParams, response: { 200: Ok } },
  }, async (request) => users.remove(request.actor, request.params.id, request.params.memberId));

  app.get('/account/:id/access', {
    config: { contract: subAccountContract(), scope: 'read' },
    schema: { tags, summary: 'Who manages a sub-account and who may use it', params: AccountIdParams, response: { 200: Access } },
  }, async (request) => users.access(request.actor, request.params.id));

  app.put('/account/:id/access', {
    config: { contract: subAccountWriteContract({ sample: { body: { team_access_from_parent: true } } }), scope: 'manage' },
    schema: { tags, summary: 'Change management and team access of a sub-account', params: AccountIdParams, body: AccessUpdate, response: { 200: Ok } },
  }, async (request) => users.setAccess(request.actor, request.params.id, request.body));
};
