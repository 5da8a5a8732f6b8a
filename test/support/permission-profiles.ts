// Callers of every kind the permission model knows: the owner, an admin and members with each pair of flags,
// signed in; and keys holding one scope each, or all four. Shared by the permission matrix and the replayed
// findings (api/permission-matrix.test.ts, api/permission-findings.test.ts).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { permissionsOf, type Permission, type Scope } from '../../src/platform/permissions.ts';
import { admin, bearer, call, createAccount, type TestAccount } from './factories.ts';
import { acceptInvite, ownerSession, sessionCall, type TestSession } from './sessions.ts';

export type Caller =
  | { kind: 'session'; name: string; permissions: Permission[]; session: TestSession }
  | { kind: 'key'; name: string; permissions: Permission[]; key: string };

export interface Profile {
  name: string;
  kind: 'session' | 'key';
  member?: { role: 'owner' | 'admin' | 'member'; can_send?: boolean; can_billing?: boolean };
  scopes?: Scope[];
}

export const PROFILES: Profile[] = [
  { name: 'owner', kind: 'session', member: { role: 'owner' } },
  { name: 'admin', kind: 'session', member: { role: 'admin' } },
  { name: 'member', kind: 'session', member: { role: 'member', can_send: false, can_billing: false } },
  { name: 'member who may send', kind: 'session', member: { role: 'member', can_send: true, can_billing: false } },
  { name: 'member who handles billing', kind: 'session', member: { role: 'member', can_send: false, can_billing: true } },
  { name: 'member who may send and handles billing', kind: 'session', member: { role: 'member', can_send: true, can_billing: true } },
  { name: 'key: read', kind: 'key', scopes: ['read'] },
  { name: 'key: send', kind: 'key', scopes: ['send'] },
  { name: 'key: billing', kind: 'key', scopes: ['billing'] },
  { name: 'key: manage', kind: 'key', scopes: ['manage'] },
  { name: 'key: all four', kind: 'key', scopes: ['read', 'send', 'billing', 'manage'] },
];

/** A member of `account` with this role and these flags, invited by the owner and signed in. */
export async function teamMember(
  app: FastifyInstance, account: TestAccount, member: { role: 'admin' | 'member'; can_send?: boolean; can_billing?: boolean },
): Promise<TestSession> {
  const invited = await call(app, account.apiKey, 'POST', '/team', { email: `m-${randomUUID()}@example.test`, ...member });
  if (invited.status !== 201) throw new Error(`invite failed: ${JSON.stringify(invited.body)}`);
  return acceptInvite(app, invited.body.invite_link as string);
}

/** The caller a profile describes, on a fresh account of its own (hierarchy on, credits to spend). */
export async function callerFor(app: FastifyInstance, profile: Profile): Promise<{ account: TestAccount; caller: Caller }> {
  const account = await createAccount(app, { hierarchy: true, credits: 1000 });
  if (profile.kind === 'key') {
    const made = await admin(app, 'POST', `/admin/accounts/${account.accountId}/keys`, { name: profile.name, scopes: profile.scopes });
    if (made.status !== 201) throw new Error(`key failed: ${JSON.stringify(made.body)}`);
    return { account, caller: { kind: 'key', name: profile.name, permissions: [...profile.scopes!], key: made.body.key as string } };
  }
  const m = profile.member!;
  const session = m.role === 'owner' ? await ownerSession(app, account) : await teamMember(app, account, { ...m, role: m.role });
  const permissions = permissionsOf({ role: m.role, canSend: m.can_send ?? true, canBilling: m.can_billing ?? true });
  return { account, caller: { kind: 'session', name: profile.name, permissions, session } };
}

/** A request as the caller: with its cookie and CSRF token, or with its key. */
export function as(app: FastifyInstance, caller: Caller, method: InjectOptions['method'], url: string, payload?: unknown) {
  return caller.kind === 'session' ? sessionCall(app, caller.session, method, url, payload) : call(app, caller.key, method, url, payload);
}

/**
 * What a caller could have changed in an account, read with the account's own full key: credits, team, keys,
 * opt-outs, webhooks, settings, messages, numbers, sub-accounts. Keys' last use is left out (every request moves it).
 */
export async function accountState(app: FastifyInstance, account: TestAccount): Promise<unknown> {
  const read = async (url: string) => (await app.inject({ method: 'GET', url, headers: bearer(account.apiKey) })).json() as Record<string, unknown>;
  const keys = (await read('/keys')).keys as Array<Record<string, unknown>>;
  return {
    balance: await read('/balance'), team: await read('/team'),
    keys: keys.map(({ last_used_at: _unused, ...k }) => k),
    optouts: await read('/optouts'), webhooks: await read('/webhooks'), settings: await read('/settings'),
    messages: await read('/messages'), numbers: await read('/numbers'), accounts: await read('/accounts'),
  };
}
