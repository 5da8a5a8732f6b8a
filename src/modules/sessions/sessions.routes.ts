import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Ok } from '../../platform/http/schemas.ts';
import { AppError } from '../../platform/errors.ts';
import type { AddressThrottle } from '../../platform/http/address-throttle.ts';
import type { PasswordResetService } from './password-reset.service.ts';
import { CSRF_HEADER, type NamedOperator } from '../../platform/http/auth.ts';
import {
  InviteAccept, InviteInfo, InviteToken, Login, PasswordForgot, PasswordReset, OperatorLogin, OperatorSessionInfo, SecondFactor, SecondFactorRequired, SESSION_EXAMPLE, SessionInfo,
} from './sessions.schemas.ts';

export const OPERATOR_SESSION_EXAMPLE = { csrf_token: 'Rk8mZ2pQ7vN1xC4bW9tY3sL6aH0dJ5fE' };
import { sessionView, type NewSession, type SessionService } from './sessions.service.ts';
import { DEVICE_COOKIE } from './sign-in-throttle.ts';

export const USER_COOKIE = 'tasman_session';
export const OPERATOR_COOKIE = 'tasman_operator';

/**
 * Gives the browser a new operator console session, ending the one its cookie held (a cookie planted before
 * sign-in never becomes a session); answers the CSRF token the console sends on writes.
 */
export function operatorSignedIn(deps: { sessions: SessionService; publicUrl: string }) {
  return async (request: FastifyRequest, reply: FastifyReply, created: NewSession & { operator?: NamedOperator }) => {
    await deps.sessions.logout(request.cookies[OPERATOR_COOKIE]);
    reply.setCookie(OPERATOR_COOKIE, created.token, {
      path: '/', httpOnly: true, sameSite: 'lax', secure: deps.publicUrl.startsWith('https:') || request.protocol === 'https',
    });
    return { csrf_token: created.csrfToken, operator: created.operator ?? null };
  };
}
const tags = ['Dashboard sessions'];
const DEVICE_COOKIE_DAYS = 365;
const security: [] = [];

// Routes for the dashboard's sign-in. Everything after sign-in goes through the ordinary API routes, which accept
// the session cookie (with X-CSRF-Token on writes) wherever they accept an API key.
/** What these routes use, and nothing else. */
export type SessionRoutesDeps = {
  sessions: SessionService; passwordResets: PasswordResetService; addressThrottle: AddressThrottle;
  /** PUBLIC_URL: cookies are Secure when it is https. */
  publicUrl: string;
  adminToken: string | null;
};

export const sessionRoutes: FastifyPluginAsyncTypebox<SessionRoutesDeps> = async (app, { sessions, passwordResets, addressThrottle, publicUrl, adminToken }) => {
  // Failed attempts at a secret count against the source address (AUTH_FAILURE_LIMIT a minute, then 429).
  const guarded = <T>(request: FastifyRequest, attempt: () => Promise<T>) => addressThrottle.guard(request.ip, attempt);
  const operatorSession = operatorSignedIn({ sessions, publicUrl });
  const secureCookies = publicUrl.startsWith('https:');

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
    config: {
      contract: {
        sample: { body: { email: 'reception@harbourdental.example', password: 'correct horse battery staple' } },
        response: SESSION_EXAMPLE,
        errors: ['invalid_credentials', 'login_locked', 'too_many_failures'],
      },
    },
    schema: {
      tags, security, summary: 'Sign in to the dashboard with email and password',
      description: 'Checks the password and starts a dashboard session: the session token is set as an HttpOnly cookie (tasman_session) and the answer carries the CSRF token every write with that cookie must send as X-CSRF-Token. Any session cookie the browser brought is ended first. A user with two-factor authentication gets 202 and a challenge instead of a session: send it with a code to POST /session/two-factor. A wrong email or password answers 401 invalid_credentials without saying which; 10 failures for one email within 15 minutes lock it for 15 minutes (429 login_locked), and too many failures from one network address answer 429 too_many_failures. No key needed.',
      body: Login, response: { 200: SessionInfo, 202: SecondFactorRequired },
    },
  }, async (request, reply) => {
    const result = await guarded(request, () => sessions.login(request.body.email, request.body.password, cookieOf(request, DEVICE_COOKIE), request.ip));
    if ('challenge' in result) return reply.status(202).send({ second_factor_required: true as const, challenge: result.challenge, expires_in: result.expiresIn });
    return signIn(request, reply, result);
  });

  app.post('/session/two-factor', {
    config: {
      contract: {
        sample: { body: { challenge: 'q7Vb2Xn9Lm4Rt8Kc1Zp6Wd3Hs0Jf5Ya2Ue7Gi9No4Be', code: '492731' } }, response: SESSION_EXAMPLE,
        errors: ['invalid_code', 'unauthorized', 'login_locked', 'too_many_failures'],
      },
    },
    schema: {
      tags, security, summary: 'The sign-in\'s second step: the challenge and a code from the authenticator app (or a recovery code)',
      description: 'Completes a sign-in that POST /session answered with 202: with a right code it starts the session as POST /session does (cookie and CSRF token). A recovery code works once. A wrong code answers 401 invalid_code and counts towards the email\'s lockout like a wrong password; an expired or spent challenge answers 401 unauthorized (sign in again). No key needed.',
      body: SecondFactor, response: { 200: SessionInfo },
    },
  }, async (request, reply) => signIn(request, reply, await guarded(request, () => sessions.verifySecondFactor(request.body.challenge, request.body.code, cookieOf(request, DEVICE_COOKIE), request.ip))));

  app.get('/session', {
    config: { contract: { errors: ['unauthorized'], response: SESSION_EXAMPLE } },
    schema: {
      tags, security, summary: 'Who is signed in, and the CSRF token for writes',
      description: 'The user and account of the session cookie, and its CSRF token (what the dashboard reads on load). 401 without a live session. Reads only.',
      response: { 200: SessionInfo },
    },
  }, async (request) => current(cookieOf(request, USER_COOKIE)));

  app.delete('/session', {
    config: { contract: { errors: ['csrf_failed'], response: { ok: true } } },
    schema: {
      tags, security, summary: 'Sign out',
      description: 'Ends the session and clears its cookie. Ending a live session is a write and needs its X-CSRF-Token (403 csrf_failed otherwise); without a live session it only clears the cookie. Idempotent.',
      response: { 200: Ok },
    },
  }, async (request, reply) => {
    const token = cookieOf(request, USER_COOKIE);
    const found = token ? await sessions.authenticate(token) : null;
    // Signing out of a live session is a write like any other; an ended one only needs its cookie cleared.
    if (found && request.headers[CSRF_HEADER] !== found.csrfToken) throw new AppError('csrf_failed', 'Missing or wrong X-CSRF-Token header');
    clearCookie(reply, USER_COOKIE);
    return sessions.logout(token);
  });

  app.post('/invites/inspect', {
    config: {
      contract: {
        sample: { body: { token: '5mQ1v8ZtR0cW2yK7pN4eH9bJ3fL6xD0a' } }, response: { email: 'reception@harbourdental.example', business_name: 'Harbour Dental Group' },
        errors: ['invite_invalid', 'too_many_failures'],
      },
    },
    schema: {
      tags, security, summary: 'Whose invite this is (before choosing a password)',
      description: 'Tells the invite page whose invite the token is, without using it up. An unknown, expired (7 days) or used token answers 404 invite_invalid. No key needed; reads only.',
      body: InviteToken, response: { 200: InviteInfo },
    },
  }, async (request) => guarded(request, () => sessions.describeInvite(request.body.token)));

  app.post('/invites/accept', {
    config: {
      contract: {
        sample: { body: { token: '5mQ1v8ZtR0cW2yK7pN4eH9bJ3fL6xD0a', password: 'correct horse battery staple' } }, response: SESSION_EXAMPLE,
        errors: ['invite_invalid', 'weak_password', 'too_many_failures'],
      },
    },
    schema: {
      tags, security, summary: 'Choose a password with an invite link and sign in',
      description: 'Sets the invited user\'s password, spends the token and starts a session (cookie and CSRF token, as POST /session). The password must have at least 12 characters and not be a common one (400 weak_password, and the token stays usable). An unknown, expired or used token answers 404 invite_invalid. No key needed.',
      body: InviteAccept, response: { 200: SessionInfo },
    },
  }, async (request, reply) => signIn(request, reply, await guarded(request, () => sessions.redeemInvite(request.body.token, request.body.password, request.ip))));

  app.post('/password/forgot', {
    config: { contract: { sample: { body: { email: 'owner@example.com' } }, response: { ok: true }, errors: [] } },
    schema: {
      tags, security, summary: 'Email a password reset link',
      description: 'Sends a dashboard user a link to choose a new password (by SMTP, or kept in the operator\'s outbox without SMTP_URL). Answers 202 whatever the email, so it does not tell who has an account. The link works once, for an hour; asking again sends another. No key needed.',
      body: PasswordForgot, response: { 202: Ok },
    },
  }, async (request, reply) => {
    await passwordResets.forgot(request.body.email);
    return reply.status(202).send({ ok: true });
  });

  app.post('/password/reset', {
    config: {
      contract: {
        sample: { body: { token: 'the-token-from-the-reset-link', password: 'correct horse battery staple' } }, response: { ok: true },
        errors: ['reset_invalid', 'weak_password', 'too_many_failures'],
      },
    },
    schema: {
      tags, security, summary: 'Choose a new password with a reset link',
      description: 'Sets the new password with the token from the reset link and spends the token. Ends every session of the user; two-factor authentication stays on. Sign in afterwards with the new password. The password must have at least 12 characters and not be a common one (400 weak_password); an unknown, used or expired token answers 404 reset_invalid. No key needed.',
      body: PasswordReset, response: { 200: Ok },
    },
  }, async (request) => guarded(request, () => passwordResets.reset(request.body.token, request.body.password, request.ip)));

  app.post('/session/operator', {
    config: { contract: { sample: { body: { token: 'the-operator-token' } }, response: OPERATOR_SESSION_EXAMPLE, errors: ['invalid_credentials', 'forbidden', 'too_many_failures'] } },
    schema: {
      tags, security, summary: 'Sign in to the operator console with the operator token',
      description: 'Trades the operator token for an operator console session: an HttpOnly cookie (tasman_operator) that the /admin operations accept instead of the bearer token, plus its CSRF token for writes. A wrong token answers 401; 403 when the operator API is disabled (no TASMAN_ADMIN_TOKEN).',
      body: OperatorLogin, response: { 200: OperatorSessionInfo },
    },
  }, async (request, reply) => {
    const created = await guarded(request, () => sessions.operatorLogin(request.body.token, adminToken, request.ip));
    return operatorSession(request, reply, created);
  });

  app.get('/session/operator', {
    config: { contract: { errors: ['forbidden', 'unauthorized'], response: OPERATOR_SESSION_EXAMPLE } },
    schema: {
      tags, security, summary: 'The operator console session, and its CSRF token',
      description: 'Whether the operator cookie holds a live console session, and its CSRF token (what the console reads on load). 401 without one; 403 when the operator API is disabled. Reads only.',
      response: { 200: OperatorSessionInfo },
    },
  }, async (request) => {
    const token = cookieOf(request, OPERATOR_COOKIE);
    if (!adminToken) throw new AppError('forbidden', 'The operator console is disabled: set TASMAN_ADMIN_TOKEN');
    const found = token ? await sessions.authenticateOperator(token, adminToken) : null;
    if (!found) throw new AppError('unauthorized', 'Not signed in as the operator');
    return { csrf_token: found.csrfToken, operator: found.operator };
  });

  app.delete('/session/operator', {
    config: { contract: { response: { ok: true } } },
    schema: {
      tags, security, summary: 'Sign out of the operator console',
      description: 'Ends the operator console session, if any, and clears its cookie. Always answers 200: idempotent.',
      response: { 200: Ok },
    },
  }, async (request, reply) => {
    clearCookie(reply, OPERATOR_COOKIE);
    return sessions.logout(cookieOf(request, OPERATOR_COOKIE));
  });
};
