import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Ok } from '../../platform/http/schemas.ts';
import type { TwoFactorService } from './two-factor.service.ts';
import { TeamMemberParams } from '../users/users.schemas.ts';
import { TwoFactorConfirm, TwoFactorDisable, TwoFactorEnabled, TwoFactorEnrolment, TwoFactorStatus } from './sessions.schemas.ts';

const tags = ['Team'];

/** The services these routes call, and nothing else. */
export type TwoFactorRoutesDeps = { twoFactor: TwoFactorService };

// The signed-in user's own second factor (permission `self`: every user, about themselves; an API key has no user
// and is refused with 403), and the reset of a member's by the owner or an admin. Registered with the keyed
// routes: the session's CSRF rule holds.
export const twoFactorRoutes: FastifyPluginAsyncTypebox<TwoFactorRoutesDeps> = async (app, { twoFactor }) => {
  app.get('/two-factor', {
    config: { contract: { errors: ['forbidden'], response: { enabled: true, pending: false, recovery_codes_left: 9 } }, scope: 'self' },
    schema: {
      tags, summary: 'Whether the signed-in user has two-factor authentication on',
      description: 'The signed-in user\'s second factor: on or off, an enrolment waiting for its first code, and how many recovery codes are left. Only with a dashboard session: an API key has no user and answers 403 forbidden.',
      response: { 200: TwoFactorStatus },
    },
  }, async (request) => twoFactor.status(request.actor));

  app.post('/two-factor/enrol', {
    config: {
      contract: {
        errors: ['forbidden', 'conflict'],
        response: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/Tasman:reception%40harbourdental.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Tasman' },
      },
      scope: 'self',
    },
    schema: {
      tags, summary: 'Start enrolling an authenticator app: a new secret, shown once',
      description: 'Makes a new TOTP secret for the signed-in user and answers it once, as text and as an otpauth:// URI for a QR code. Nothing changes at sign-in until POST /two-factor/confirm proves the app holds it; enrolling again replaces a pending secret. 409 conflict when two-factor is already on. Dashboard session only (403 with an API key).',
      response: { 200: TwoFactorEnrolment },
    },
  }, async (request) => twoFactor.enrol(request.actor));

  app.post('/two-factor/confirm', {
    config: {
      contract: {
        sample: { body: { code: '492731' } },
        response: { enabled: true, recovery_codes: ['7hq2-xk9p', 'l4mn-8vb3', 'cr6t-y1wz', '5ad0-fg2j', 'p8s3-m1ke', 'w6ru-9dyt', 'b2qn-4vlh', 'z7cx-3gfa', 'j0kp-6ste', 'u5mb-1wry'] },
        errors: ['forbidden', 'conflict'],
      },
      scope: 'self',
    },
    schema: {
      tags, summary: 'Turn two-factor authentication on with the app\'s first code; returns ten recovery codes, once',
      description: 'Checks the first code from the app against the pending secret and turns two-factor authentication on: from the next sign-in, POST /session asks for a code. Answers ten one-time recovery codes, shown this once. A wrong code answers 400 validation_failed (try the current one); 409 conflict when it is already on or no enrolment is pending. Dashboard session only.',
      body: TwoFactorConfirm, response: { 200: TwoFactorEnabled },
    },
  }, async (request) => twoFactor.confirm(request.actor, request.body.code));

  app.post('/two-factor/disable', {
    config: { contract: { sample: { body: { code: '492731' } }, response: { ok: true }, errors: ['forbidden', 'conflict', 'login_locked'] }, scope: 'self' },
    schema: {
      tags, summary: 'Turn two-factor authentication off with a current code, a recovery code or the password',
      description: 'Turns the signed-in user\'s second factor off and deletes its secret and recovery codes, given proof: a current code, a recovery code or the password. Wrong proof answers 400 and counts towards the email\'s sign-in lockout (429 login_locked once locked), so a stolen session cannot guess the password here. 409 conflict when it is not on. Dashboard session only.',
      body: TwoFactorDisable, response: { 200: Ok },
    },
  }, async (request) => twoFactor.disable(request.actor, request.body));

  app.delete('/team/:memberId/two-factor', {
    config: { contract: { errors: ['forbidden', 'permission_denied', 'not_found'], response: { ok: true } }, scope: 'manage' },
    schema: {
      tags, summary: 'Reset a member\'s two-factor authentication (they lost their device): the owner, an admin or a manage key',
      description: 'Turns a member\'s second factor off so they can sign in with their password alone and enrol again. For the owner, an admin or an API key with the manage scope; members answer 403 permission_denied, as does a caller resetting someone who holds a permission it lacks (no user resets the owner\'s; a key holding every scope can), and nobody resets their own this way (403 forbidden: use POST /two-factor/disable). A user not on the account answers 404.',
      params: TeamMemberParams, response: { 200: Ok },
    },
  }, async (request) => twoFactor.reset(request.actor, request.params.memberId));
};
