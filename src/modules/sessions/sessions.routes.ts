import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Ok } from '../../platform/http/schemas.ts';
import { AppError } from '../../platform/errors.ts';
import type { Services } from '../../compose.ts';
import { CSRF_HEADER } from '../../platform/http/auth.ts';
import {
  InviteAccept, InviteInfo, InviteToken, Login, OperatorLogin, OperatorSessionInfo, SecondFactor, SecondFactorRequired, SessionInfo,
} from './sessions.schemas.ts';
import { sessionView, type NewSession } from './sessions.service.ts';
import { DEVICE_COOKIE } from './sign-in-throttle.ts';

export const USER_COOKIE = 'tasman_session';
export const OPERATOR_COOKIE = 'tasman_operator';
const tags = ['Dashboard sessions'];
const DEVICE_COOKIE_DAYS = 365;
const security: [] = [];

// Routes for the dashboard's sign-in. Everything after sign-in goes through the ordinary API routes, which accept
// the session cookie (with X-CSRF-Token on writes) wherever they accept an API key.
export const sessionRoutes: FastifyPluginAsyncTypebox<{ services: Services; adminToken: string | null }> = async (app, { services, adminToken }) => {
  const { sessions } = services;
  // Failed attempts at a secret count against the source address (AUTH_FAILURE_LIMIT a minute, then 429).
  const guarded = <T>(request: FastifyRequest, attempt: () => Promise<T>) => services.addressThrottle.guard(request.ip, attempt);
  const secureCookies = services.config.publicUrl.startsWith('https:');

  const cookieOf = (request: FastifyRequest, name: string) => request.cookies[name];
  function setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string) {
    reply.setCookie(name, value, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies || request.protocol === 'https' });
  }
  const clearCookie = (reply: FastifyReply, name: string) => reply.clearCookie(name, { path: '/' });

  /** The signed-in user's view; 401 without a live session. */
  async function current(token: string | undefined) {
    const found = token ? await sessions.authenticate(token) : null;
    if (!found) throw new AppError('unauthorized', 'Not signed in');
    return sessionView(found.actor, found.csrfToken, found.name);
  }

  // A new token on every sign-in, and the cookie the browser brought (if any) is ended: a token planted before
  // sign-in never becomes a signed-in session (session fixation). The browser also gets (or keeps) a device cookie
  // for this email, so strangers' failed sign-ins never delay it (sign-in-throttle.ts). It goes only to /session.
  async function signIn(request: FastifyRequest, reply: FastifyReply, created: NewSession) {
    await sessions.logout(cookieOf(request, USER_COOKIE));
    setCookie(request, reply, USER_COOKIE, created.token);
    const view = await current(created.token);
    reply.setCookie(DEVICE_COOKIE, sessions.deviceCookie(cookieOf(request, DEVICE_COOKIE), view.user.email), {
      path: '/session', httpOnly: true, sameSite: 'lax', secure: secureCookies || request.protocol === 'https', maxAge: DEVICE_COOKIE_DAYS * 86_400,
    });
    return view;
  }

  app.post('/session', {
    config: { contract: { sample: { body: { email: 'owner@example.com', password: 'a long pass phrase' } }, errors: ['invalid_credentials', 'login_locked', 'too_many_failures'] } },
    schema: {
      tags, security, summary: 'Sign in to the dashboard with email and password',
      description: 'A user with two-factor authentication gets 202 and a challenge instead of a session: send it with a code to POST /session/two-factor.',
      body: Login, response: { 200: SessionInfo, 202: SecondFactorRequired },
    },
  }, async (request, reply) => {
    const result = await guarded(request, () => sessions.login(request.body.email, request.body.password, cookieOf(request, DEVICE_COOKIE)));
    if ('challenge' in result) return reply.status(202).send({ second_factor_required: true as const, challenge: result.challenge, expires_in: result.expiresIn });
    return signIn(request, reply, result);
  });

  app.post('/session/two-factor', {
    config: { contract: { sample: { body: { challenge: 'x'.repeat(43), code: '123456' } }, errors: ['invalid_code', 'unauthorized', 'login_locked', 'too_many_failures'] } },
    schema: { tags, security, summary: 'The sign-in\'s second step: the challenge and a code from the authenticator app (or a recovery code)', body: SecondFactor, response: { 200: SessionInfo } },
  }, async (request, reply) => signIn(request, reply, await guarded(request, () => sessions.verifySecondFactor(request.body.challenge, request.body.code, cookieOf(request, DEVICE_COOKIE)))));

  app.get('/session', {
    config: { contract: { errors: ['unauthorized'] } },
    schema: { tags, security, summary: 'Who is signed in, and the CSRF token for writes', response: { 200: SessionInfo } },
  }, async (request) => current(cookieOf(request, USER_COOKIE)));

  app.delete('/session', {
    config: { contract: { errors: ['csrf_failed'] } },
    schema: { tags, security, summary: 'Sign out', response: { 200: Ok } },
  }, async (request, reply) => {
    const token = cookieOf(request, USER_COOKIE);
    const found = token ? await sessions.authenticate(token) : null;
    // Signing out of a live session is a write like any other; an ended one only needs its cookie cleared.
    if (found && request.headers[CSRF_HEADER] !== found.csrfToken) throw new AppError('csrf_failed', 'Missing or wrong X-CSRF-Token header');
    clearCookie(reply, USER_COOKIE);
    return sessions.logout(token);
  });

  app.post('/invites/inspect', {
    config: { contract: { sample: { body: { token: 'the-invite-token-from-the-link' } }, errors: ['invite_invalid', 'too_many_failures'] } },
    schema: { tags, security, summary: 'Whose invite this is (before choosing a password)', body: InviteToken, response: { 200: InviteInfo } },
  }, async (request) => guarded(request, () => sessions.describeInvite(request.body.token)));

  app.post('/invites/accept', {
    config: { contract: { sample: { body: { token: 'the-invite-token-from-the-link', password: 'a long pass phrase' } }, errors: ['invite_invalid', 'weak_password', 'too_many_failures'] } },
    schema: { tags, security, summary: 'Choose a password with an invite link and sign in', body: InviteAccept, response: { 200: SessionInfo } },
  }, async (request, reply) => signIn(request, reply, await guarded(request, () => sessions.redeemInvite(request.body.token, request.body.password))));

  app.post('/session/operator', {
    config: { contract: { sample: { body: { token: 'the-operator-token' } }, errors: ['invalid_credentials', 'forbidden', 'too_many_failures'] } },
    schema: { tags, security, summary: 'Sign in to the operator console with the operator token', body: OperatorLogin, response: { 200: OperatorSessionInfo } },
  }, async (request, reply) => {
    const created = await guarded(request, () => sessions.operatorLogin(request.body.token, adminToken));
    await sessions.logout(cookieOf(request, OPERATOR_COOKIE));
    setCookie(request, reply, OPERATOR_COOKIE, created.token);
    return { csrf_token: created.csrfToken };
  });

  app.get('/session/operator', {
    config: { contract: { errors: ['forbidden', 'unauthorized'] } },
    schema: { tags, security, summary: 'The operator console session, and its CSRF token', response: { 200: OperatorSessionInfo } },
  }, async (request) => {
    const token = cookieOf(request, OPERATOR_COOKIE);
    if (!adminToken) throw new AppError('forbidden', 'The operator console is disabled: set TASMAN_ADMIN_TOKEN');
    const found = token ? await sessions.authenticateOperator(token, adminToken) : null;
    if (!found) throw new AppError('unauthorized', 'Not signed in as the operator');
    return { csrf_token: found.csrfToken };
  });

  app.delete('/session/operator', {
    schema: { tags, security, summary: 'Sign out of the operator console', response: { 200: Ok } },
  }, async (request, reply) => {
    clearCookie(reply, OPERATOR_COOKIE);
    return sessions.logout(cookieOf(request, OPERATOR_COOKIE));
  });
};
