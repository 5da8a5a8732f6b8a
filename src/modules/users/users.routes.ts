import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { Ok } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { AccountIdParams, subAccountContract, subAccountWriteContract } from '../accounts/accounts.schemas.ts';
import {
  Access, AccessUpdate, Invite, Invited, INVITE_SAMPLE, INVITED_EXAMPLE, MemberParams, TeamMemberParams, USER_EXAMPLE, UserList,
} from './users.schemas.ts';

const tags = ['Team'];
const USER_LIST_EXAMPLE = { users: [USER_EXAMPLE] };

export const userRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { users } = services;

  app.get('/team', {
    config: { contract: { response: USER_LIST_EXAMPLE }, scope: 'read' },
    schema: {
      tags, summary: 'Users of the caller\'s own account',
      description: 'The people who sign in to the calling account\'s dashboard, with what each may do; when the account shares its parent\'s team (team_access_from_parent), the parent\'s users follow with source parent. Removed users are not listed. Needs the read scope.',
      response: { 200: UserList },
    },
  }, async (request) => users.team(request.actor));

  app.post('/team', {
    // A member may grant only the permissions it holds (permission_denied).
    config: { contract: { sample: { body: INVITE_SAMPLE }, response: INVITED_EXAMPLE, errors: ['permission_denied', 'email_taken'] }, scope: 'manage' },
    schema: {
      tags, summary: 'Invite a user to the caller\'s own account',
      description: 'Adds a user and answers a one-time invite link (valid 7 days) where they choose a password; Tasman sends no email, so pass the link on yourself. A signed-in member may grant only the permissions they hold (403 permission_denied); an email already on the account answers 409 email_taken. Needs the manage scope. Not idempotent: the second call with the same email answers 409.',
      body: Invite, response: { 201: Invited },
    },
  }, async (request, reply) => reply.status(201).send(await users.inviteToTeam(request.actor, request.body)));

  app.delete('/team/:memberId', {
    // forbidden: removing oneself.
    config: { contract: { errors: ['forbidden', 'not_found'], response: { ok: true } }, scope: 'manage' },
    schema: {
      tags, summary: 'Remove a user from the caller\'s own account',
      description: 'Removes the user: they can no longer sign in, and a session they hold ends on its next request. Nobody removes themselves (403 forbidden); an unknown or already removed user answers 404. Needs the manage scope.',
      params: TeamMemberParams, response: { 200: Ok },
    },
  }, async (request) => users.removeFromTeam(request.actor, request.params.memberId));

  app.get('/account/:id/users', {
    config: { contract: subAccountContract({ response: USER_LIST_EXAMPLE }), scope: 'read' },
    schema: {
      tags, summary: 'A sub-account\'s direct users',
      description: 'The sub-account\'s own dashboard users (not the parent\'s, whose access GET /account/{id}/access shows). Needs hierarchy enabled on the caller and the read scope.',
      params: AccountIdParams, response: { 200: UserList },
    },
  }, async (request) => users.list(request.actor, request.params.id));

  app.post('/account/:id/users', {
    config: { contract: subAccountWriteContract({ sample: { body: INVITE_SAMPLE }, response: INVITED_EXAMPLE, errors: ['email_taken'] }), scope: 'manage' },
    schema: {
      tags, summary: 'Invite a user to a sub-account',
      description: 'Adds a user to the sub-account and answers their one-time invite link (valid 7 days); Tasman sends no email. An email already on the sub-account answers 409 email_taken. Only for a sub-account the parent manages. Needs the manage scope.',
      params: AccountIdParams, body: Invite, response: { 201: Invited },
    },
  }, async (request, reply) => reply.status(201).send(await users.invite(request.actor, request.params.id, request.body)));

  app.delete('/account/:id/users/:memberId', {
    config: { contract: subAccountWriteContract({ response: { ok: true } }), scope: 'manage' },
    schema: {
      tags, summary: 'Remove a user from a sub-account',
      description: 'Removes the sub-account\'s user: they can no longer sign in, and a session they hold ends on its next request. An unknown or already removed user answers 404. Only for a sub-account the parent manages. Needs the manage scope.',
      params: MemberParams, response: { 200: Ok },
    },
  }, async (request) => users.remove(request.actor, request.params.id, request.params.memberId));

  app.get('/account/:id/access', {
    config: {
      contract: subAccountContract({
        response: { managed_by_parent: true, team_access_from_parent: false, direct_team: [USER_EXAMPLE], eligible_parent_team: [{ ...USER_EXAMPLE, id: EX.user.replace(/.$/, '8'), email: 'ops@harbourdental.example', name: 'Sam Lee', can_billing: true, source: 'parent' }] },
      }),
      scope: 'read',
    },
    schema: {
      tags: ['Sub-accounts'], summary: 'Who manages a sub-account and who may use it',
      description: 'Whether the parent manages the sub-account, whether the parent\'s users may sign in to it, its own users, and the parent\'s users who would get in. Needs hierarchy enabled on the caller and the read scope.',
      params: AccountIdParams, response: { 200: Access },
    },
  }, async (request) => users.access(request.actor, request.params.id));

  app.put('/account/:id/access', {
    config: { contract: subAccountWriteContract({ sample: { body: { team_access_from_parent: true } }, response: { ok: true } }), scope: 'manage' },
    schema: {
      tags: ['Sub-accounts'], summary: 'Change management and team access of a sub-account',
      description: 'Sets whether the parent\'s users may sign in to the sub-account, and can hand the sub-account over to its own owner (managed_by_parent false, which needs the sub-account to have an email). Handing over is one-way for the parent: from then on every change, this one included, answers 403 not_managed_by_parent. Needs the manage scope. Idempotent.',
      params: AccountIdParams, body: AccessUpdate, response: { 200: Ok },
    },
  }, async (request) => users.setAccess(request.actor, request.params.id, request.body));
};
