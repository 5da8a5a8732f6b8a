import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AddressThrottle } from '../../platform/http/address-throttle.ts';
import { AppError } from '../../platform/errors.ts';
import { OperatorSessionInfo } from '../sessions/sessions.schemas.ts';
import { OPERATOR_SESSION_EXAMPLE, operatorSignedIn } from '../sessions/sessions.routes.ts';
import type { SessionService } from '../sessions/sessions.service.ts';
import type { OperatorSignIn } from './operator-sign-in.service.ts';

const tags = ['Dashboard sessions'];
const security: [] = [];
const SetupToken = Type.String({ minLength: 1, maxLength: 200, description: 'The token from the setup link (after #)' });
const Code = Type.String({ minLength: 1, maxLength: 20, description: 'The current 6-digit code of the authenticator app' });
const Password = Type.String({ minLength: 1, maxLength: 200, description: 'The password' });

/** What these routes use, and nothing else. */
export type OperatorSignInRoutesDeps = {
  operatorSignIn: OperatorSignIn; sessions: SessionService; addressThrottle: AddressThrottle;
  /** PUBLIC_URL: cookies are Secure when it is https. */
  publicUrl: string;
  adminToken: string | null;
};

// The operator console's sign-in for named operators: the setup link's two steps, then name, password and code.
// Each failed attempt at a secret counts against the source address (AUTH_FAILURE_LIMIT a minute, then 429).
export const operatorSignInRoutes: FastifyPluginAsyncTypebox<OperatorSignInRoutesDeps> = async (app, deps) => {
  const { operatorSignIn, addressThrottle } = deps;
  const signedIn = operatorSignedIn(deps);
  // The console is off with the operator API: no operator token, no operator sessions of any kind.
  const enabled = () => {
    if (!deps.adminToken) throw new AppError('forbidden', 'The operator console is disabled: set TASMAN_ADMIN_TOKEN');
  };

  app.post('/session/operator/setup/describe', {
    config: {
      contract: {
        sample: { body: { token: 'the-token-from-the-setup-link' } }, errors: ['invite_invalid', 'forbidden', 'too_many_failures'],
        response: { name: 'Priya Raman', secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/Tasman:operator%20Priya%20Raman?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Tasman' },
      },
    },
    schema: {
      tags, security, summary: 'Read an operator setup link: who, and the authenticator secret to enrol',
      description: 'What the setup page shows: the operator\'s name and the secret for their authenticator app (as text and as an otpauth URI for a QR code), the same one until the setup completes. 404 invite_invalid for an unknown, used or expired link. No key needed.',
      body: Type.Object({ token: SetupToken }),
      response: {
        200: Type.Object({
          name: Type.String({ description: 'The operator\'s name: they sign in with it' }),
          secret: Type.String({ description: 'The TOTP secret (base32) to type into the app' }),
          otpauth_uri: Type.String({ description: 'The same secret as an otpauth:// URI, for a QR code' }),
        }, { description: 'The setup' }),
      },
    },
  }, async (request) => {
    enabled();
    return addressThrottle.guard(request.ip, () => operatorSignIn.describeSetup(request.body.token));
  });

  app.post('/session/operator/setup', {
    config: {
      contract: {
        sample: { body: { token: 'the-token-from-the-setup-link', password: 'correct horse battery staple', code: '123456' } },
        errors: ['invite_invalid', 'weak_password', 'invalid_code', 'forbidden', 'too_many_failures'], response: OPERATOR_SESSION_EXAMPLE,
      },
    },
    schema: {
      tags, security, summary: 'Complete an operator\'s setup: a password and the first authenticator code',
      description: 'Sets the operator\'s console password (at least 12 characters, not a common one: 400 weak_password) and turns their second factor on with a current code from the app (400 invalid_code), spends the setup link and signs them in: the operator cookie (tasman_operator) and its CSRF token, as POST /session/operator answers. No key needed.',
      body: Type.Object({ token: SetupToken, password: Type.String({ minLength: 1, maxLength: 200, description: 'The new password' }), code: Code }),
      response: { 200: OperatorSessionInfo },
    },
  }, async (request, reply) => {
    enabled();
    const created = await addressThrottle.guard(request.ip, () => operatorSignIn.completeSetup(request.body.token, request.body, request.ip));
    return signedIn(request, reply, created);
  });

  app.post('/session/operator/sign-in', {
    config: {
      contract: {
        sample: { body: { name: 'Priya Raman', password: 'correct horse battery staple', code: '123456' } },
        errors: ['invalid_credentials', 'login_locked', 'forbidden', 'too_many_failures'], response: OPERATOR_SESSION_EXAMPLE,
      },
    },
    schema: {
      tags, security, summary: 'Sign in to the operator console as a named operator: name, password and code',
      description: 'A named operator\'s console session, with their name (any case), password and a current code from their authenticator app, all in one step: a refusal (401 invalid_credentials) does not say which was wrong, and failures delay further tries at that name. The console\'s actions are recorded in the audit log under their name. No key needed.',
      body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100, description: 'The operator\'s name' }), password: Password, code: Code }),
      response: { 200: OperatorSessionInfo },
    },
  }, async (request, reply) => {
    enabled();
    const created = await addressThrottle.guard(request.ip, () => operatorSignIn.signIn(request.body, request.ip));
    return signedIn(request, reply, created);
  });
};
