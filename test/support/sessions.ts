import type { FastifyInstance, InjectOptions } from 'fastify';
import type { TestAccount } from './factories.ts';

export const PASSWORD = 'harbour-lights-at-seven';

export interface TestSession {
  cookie: string;
  csrf: string;
  userId: string;
}

/** The token an invite link carries (in its fragment). */
export const inviteToken = (link: string) => new URL(link).hash.slice(1);

/** Accepts an invite link with a good password: a signed-in session, as the dashboard's invite page does it. */
export async function acceptInvite(app: FastifyInstance, link: string, password = PASSWORD): Promise<TestSession> {
  const res = await app.inject({ method: 'POST', url: '/invites/accept', payload: { token: inviteToken(link), password } });
  if (res.statusCode !== 200) throw new Error(`invite accept failed: ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'tasman_session')!.value;
  const body = res.json() as { csrf_token: string; user: { id: string } };
  return { cookie, csrf: body.csrf_token, userId: body.user.id };
}

/** The account's owner, signed in. */
export const ownerSession = (app: FastifyInstance, account: TestAccount) => acceptInvite(app, account.ownerInviteUrl!);

/** A request through a session cookie, with the CSRF header unless `csrf: false`. */
export async function sessionCall(
  app: FastifyInstance, s: TestSession, method: InjectOptions['method'], url: string, payload?: unknown, opts: { csrf?: boolean } = {},
) {
  const res = await app.inject({
    method, url, cookies: { tasman_session: s.cookie },
    headers: opts.csrf === false ? {} : { 'x-csrf-token': s.csrf },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  let body: Record<string, unknown> = {};
  try { body = res.json(); } catch { /* not JSON */ }
  return { status: res.statusCode, body, headers: res.headers, cookies: res.cookies };
}

