import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { Ok } from '../../platform/http/schemas.ts';
import type { UserService } from './users.service.ts';
import { AccountIdParams, subAccountContract, subAccountWriteContract } from '../accounts/accounts.schemas.ts';
import {
  Access, AccessUpdate, Invite, Invited, INVITE_SAMPLE, INVITED_EXAMPLE, MemberParams, MemberRemoved, MemberUpdate, MemberUpdated,
  OwnershipTransfer, OwnershipTransferred, TeamMemberParams, USER_EXAMPLE, UserList,
} from './users.schemas.ts';

const tags = ['Team'];
const USER_LIST_EXAMPLE = { users: [USER_EXAMPLE] };

/** The services these routes call, and nothing else. */
export type UserRoutesDeps = { users: UserService };

export const userRoutes: FastifyPluginAsyncTypebox<UserRoutesDeps> = async (app, { users }) => {
  app.get('/team', {
    config: { contract: { response: USER_LIST_EXAMPLE }, scope: 'read' },
    schema: {
      tags, summary: 'Users of the caller\'s own account',
      description: 'The people who sign in to the calling account\'s dashboard, with what each may do; when the account shares its parent\'s team (team_access_from_parent), the parent\'s users follow with source parent. Removed users are not listed. Needs the read scope.',
      response: { 200: UserList },
    },
  }, async (request) => users.team(request.actor));

  app.post('/team', {
    // A caller may grant only the permissions it holds (permission_denied, insufficient_scope).
    config: { contract: { sample: { body: INVITE_SAMPLE }, response: INVITED_EXAMPLE, errors: ['permission_denied', 'email_taken'] }, scope: 'manage' },
    schema: {
      tags, summary: 'Invite a user to the caller\'s own account',
      description: 'Adds a user and answers a one-time invite link (valid 7 days) where they choose a password; Tasman sends no email, so pass the link on yourself. The caller may grant only the permissions it holds (403 permission_denied for a user, insufficient_scope for a key); an account\'s first user becomes its owner. An email already on the account answers 409 email_taken. Needs the manage permission. Not idempotent: the second call with the same email answers 409.',
      body: Invite, response: { 201: Invited },
    },
  }, async (request, reply) => reply.status(201).send(await users.inviteToTeam(request.actor, request.body)));

  app.delete('/team/:memberId', {
    // forbidden: removing oneself; permission_denied: the owner, or a user holding more than the caller.
    config: { contract: { errors: ['forbidden', 'permission_denied', 'not_found'], response: { ok: true, keys_revoked: 1 } }, scope: 'manage' },
    schema: {
      tags, summary: 'Remove a user from the caller\'s own account',
      description: 'Removes the user: they can no longer sign in, and a session they hold ends on its next request. Their API keys are revoked at once. Nobody removes themselves (403 forbidden) or the owner, nor a user holding a permission the caller lacks (403 permission_denied); an unknown or already removed user answers 404. Needs the manage permission.',
      params: TeamMemberParams, response: { 200: MemberRemoved },
    },
  }, async (request) => users.removeFromTeam(request.actor, request.params.memberId));

  app.patch('/team/:memberId', {
    config: {
      contract: {
        sample: { body: { can_send: false } }, response: { user: { ...USER_EXAMPLE, can_send: false }, keys_revoked: 0, keys_narrowed: 1 },
        errors: ['forbidden', 'permission_denied', 'not_found', 'validation_failed'],
      },
      scope: 'manage',
    },
    schema: {
      tags, summary: 'Change a user\'s role or permissions (their API keys are cut down to match)',
      description: 'Makes the user an admin or a member, or changes a member\'s can_send and can_billing; what is left out keeps its value. The API keys that belong to the user lose, in the same transaction, every permission the user no longer holds (a key left with none is revoked). Nobody changes their own role (403 forbidden) or the owner\'s, nor gives, takes or touches a permission they lack (403 permission_denied for a user, insufficient_scope for a key). Needs the manage permission.',
      params: TeamMemberParams, body: MemberUpdate, response: { 200: MemberUpdated },
    },
  }, async (request) => users.changeMember(request.actor, request.params.memberId, request.body));

  app.post('/team/transfer-ownership', {
    // conflict: the new owner must be an admin.
    config: {
      contract: {
        sample: { body: { member_id: USER_EXAMPLE.id } },
        response: { owner: { ...USER_EXAMPLE, role: 'owner', can_billing: true }, previous_owner: { ...USER_EXAMPLE, role: 'admin', can_billing: true } },
        errors: ['forbidden', 'permission_denied', 'not_found', 'conflict'],
      },
      scope: 'owner',
    },
    schema: {
      tags, summary: 'Hand the account to an admin: they become the owner and the caller an admin',
      description: 'Only the owner, signed in to the dashboard (no API key holds the owner\'s right), and only to an admin of the account (409 conflict for a member: make them an admin first). Both changes happen in one transaction: the account always has exactly one owner.',
      body: OwnershipTransfer, response: { 200: OwnershipTransferred },
    },
  }, async (request) => users.transferOwnership(request.actor, request.body.member_id));

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
    config: { contract: subAccountWriteContract({ response: { ok: true, keys_revoked: 0 }, errors: ['permission_denied'] }), scope: 'manage' },
    schema: {
      tags, summary: 'Remove a user from a sub-account',
      description: 'Removes the sub-account\'s user: they can no longer sign in, and a session they hold ends on its next request. Their API keys are revoked at once. Nobody removes the sub-account\'s owner, nor a user holding a permission the caller lacks (403 permission_denied). An unknown or already removed user answers 404. Only for a sub-account the parent manages. Needs the manage permission.',
      params: MemberParams, response: { 200: MemberRemoved },
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
