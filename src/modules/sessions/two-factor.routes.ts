import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Ok } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { TeamMemberParams } from '../users/users.schemas.ts';
import { TwoFactorConfirm, TwoFactorDisable, TwoFactorEnabled, TwoFactorEnrolment, TwoFactorStatus } from './sessions.schemas.ts';

const tags = ['Dashboard sessions'];

// The signed-in user's own second factor (through the session cookie; an API key has no user and is refused
// with 403), and an owner's reset of a member's. Registered with the keyed routes: the session's CSRF rule holds.
export const twoFactorRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { twoFactor } = services;

  app.get('/two-factor', {
    config: { contract: { errors: ['forbidden'] }, scope: 'read' },
    schema: { tags, summary: 'Whether the signed-in user has two-factor authentication on', response: { 200: TwoFactorStatus } },
  }, async (request) => twoFactor.status(request.actor));

  app.post('/two-factor/enrol', {
    config: { contract: { errors: ['forbidden', 'conflict'] }, scope: 'manage' },
    schema: { tags, summary: 'Start enrolling an authenticator app: a new secret, shown once', response: { 200: TwoFactorEnrolment } },
  }, async (request) => twoFactor.enrol(request.actor));

  app.post('/two-factor/confirm', {
    config: { contract: { sample: { body: { code: '123456' } }, errors: ['forbidden', 'conflict'] }, scope: 'manage' },
    schema: { tags, summary: 'Turn two-factor authentication on with the app\'s first code; returns ten recovery codes, once', body: TwoFactorConfirm, response: { 200: TwoFactorEnabled } },
  }, async (request) => twoFactor.confirm(request.actor, request.body.code));

  app.post('/two-factor/disable', {
    config: { contract: { sample: { body: { password: 'x' } }, errors: ['forbidden', 'conflict', 'login_locked'] }, scope: 'manage' },
    schema: { tags, summary: 'Turn two-factor authentication off with a current code, a recovery code or the password', body: TwoFactorDisable, response: { 200: Ok } },
  }, async (request) => twoFactor.disable(request.actor, request.body));

  app.delete('/team/:memberId/two-factor', {
    config: { contract: { errors: ['forbidden', 'permission_denied', 'not_found'] }, scope: 'manage' },
    schema: { tags, summary: 'Reset a member\'s two-factor authentication (they lost their device): the owner\'s or a manage key\'s', params: TeamMemberParams, response: { 200: Ok } },
  }, async (request) => twoFactor.reset(request.actor, request.params.memberId));
};
