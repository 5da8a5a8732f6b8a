// The account routes of the hierarchy and the family they run against: shared by the matrix through API keys
// (api/hierarchy-matrix.test.ts) and through dashboard sessions (api/sessions-hierarchy.test.ts).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { admin, call, createAccount, mobile, type TestAccount } from './factories.ts';

export interface Target {
  id: string;
  keyId: string;
  memberId: string;
  /** a number the target's parent holds (what assign would move) */
  parentNumber: string;
  /** a number the target holds (what recall would move) */
  childNumber: string;
}

export interface Route {
  name: string;
  method: InjectOptions['method'];
  url: (x: Target) => string;
  payload?: (x: Target) => object;
  ok: number;
}

export const routes: Route[] = [
  { name: 'read account', method: 'GET', url: (x) => `/account/${x.id}`, ok: 200 },
  { name: 'patch account', method: 'PATCH', url: (x) => `/account/${x.id}`, payload: () => ({ business_name: 'Renamed', inherit_parent_senders: true }), ok: 200 },
  { name: 'close account', method: 'DELETE', url: (x) => `/account/${x.id}`, ok: 200 },
  { name: 'balance', method: 'GET', url: (x) => `/account/${x.id}/balance`, ok: 200 },
  { name: 'allocate', method: 'POST', url: (x) => `/account/${x.id}/credits/allocate`, payload: () => ({ amount: 1 }), ok: 200 },
  { name: 'recall', method: 'POST', url: (x) => `/account/${x.id}/credits/recall`, payload: () => ({ amount: 1 }), ok: 200 },
  { name: 'list keys', method: 'GET', url: (x) => `/account/${x.id}/keys`, ok: 200 },
  { name: 'create key', method: 'POST', url: (x) => `/account/${x.id}/key`, payload: () => ({ name: 'new' }), ok: 201 },
  { name: 'revoke key', method: 'DELETE', url: (x) => `/account/${x.id}/key/${x.keyId}`, ok: 200 },
  { name: 'list users', method: 'GET', url: (x) => `/account/${x.id}/users`, ok: 200 },
  { name: 'invite user', method: 'POST', url: (x) => `/account/${x.id}/users`, payload: () => ({ email: `u-${randomUUID()}@x.test` }), ok: 201 },
  { name: 'remove user', method: 'DELETE', url: (x) => `/account/${x.id}/users/${x.memberId}`, ok: 200 },
  { name: 'read access', method: 'GET', url: (x) => `/account/${x.id}/access`, ok: 200 },
  { name: 'update access', method: 'PUT', url: (x) => `/account/${x.id}/access`, payload: () => ({ team_access_from_parent: true }), ok: 200 },
  { name: 'list numbers', method: 'GET', url: (x) => `/account/${x.id}/numbers`, ok: 200 },
  { name: 'assign numbers', method: 'POST', url: (x) => `/account/${x.id}/numbers/assign`, payload: (x) => ({ numbers: [x.parentNumber] }), ok: 200 },
  { name: 'recall numbers', method: 'POST', url: (x) => `/account/${x.id}/numbers/recall`, payload: (x) => ({ numbers: x.childNumber }), ok: 200 },
];

/** A parent with the flag and a fully furnished sub-account: key, member, a number of its own, one left on the parent. */
export async function furnishedFamily(app: FastifyInstance): Promise<{ parent: TestAccount; child: TestAccount; target: Target }> {
  const parent = await createAccount(app, { credits: 100, hierarchy: true });
  const created = await call(app, parent.apiKey, 'POST', '/accounts', { business_name: 'Child', seed_credits: 10, email: `c-${randomUUID()}@x.test` });
  const id = created.body.id as string;
  const key = await call(app, parent.apiKey, 'POST', `/account/${id}/key`, { name: 'k' });
  const member = await call(app, parent.apiKey, 'POST', `/account/${id}/users`, { email: 'member@x.test' });
  const [parentNumber, childNumber] = [mobile(), mobile()];
  for (const n of [parentNumber, childNumber]) await admin(app, 'POST', '/admin/numbers', { number: n, country: 'AU', account_id: parent.accountId });
  await call(app, parent.apiKey, 'POST', `/account/${id}/numbers/assign`, { numbers: childNumber });
  const child = { accountId: id, apiKey: key.body.key as string, keyId: key.body.id as string };
  return { parent, child, target: { id, keyId: child.keyId, memberId: (member.body.user as { id: string }).id, parentNumber, childNumber } };
}

