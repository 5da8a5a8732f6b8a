// The account routes of the hierarchy (from the route registry) and the family they run against: shared by the
// matrix through API keys (api/hierarchy-matrix.test.ts) and through dashboard sessions (api/sessions-hierarchy.test.ts).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { routesOf } from '../../src/platform/http/route-registry.ts';
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
  payload?: (x: Target) => object | undefined;
  ok: number;
  /** Answers for a closed sub-account too (history: loadManagedAccount with includeClosed). */
  closedReadable: boolean;
}

// Bodies that name what the family holds; every other route sends its contract's sample.
const familyBodies: Record<string, (x: Target) => object> = {
  'POST /account/:id/numbers/assign': (x) => ({ numbers: [x.parentNumber] }),
  'POST /account/:id/numbers/recall': (x) => ({ numbers: x.childNumber }),
};

// History stays readable after a sub-account is closed (as in GET /report/group); every other route answers 404.
const closedReadable = new Set(['GET /account/:id/report', 'GET /account/:id/report/daily']);

const fill = (url: string, x: Target) => {
  const filled = url.replace(':id', x.id).replace(':keyId', x.keyId).replace(':memberId', x.memberId);
  if (filled.includes(':')) throw new Error(`${url}: a path parameter the matrix cannot fill (extend Target)`);
  return filled;
};

/**
 * The account routes of the hierarchy, from the route registry: every API-key route on one sub-account
 * (`/account/:id…`), so a new one joins the matrix without editing a list. Its success status is the one its
 * schema documents.
 */
export function hierarchyRoutes(app: FastifyInstance): Route[] {
  const found = routesOf(app).filter((r) => r.auth === 'api_key' && /^\/account\/:id(\/|$)/.test(r.url));
  if (found.length === 0) throw new Error('the route registry lists no /account/:id routes');
  return found.map((r) => ({
    name: r.url,
    method: r.method as InjectOptions['method'],
    url: (x) => fill(r.url, x),
    payload: (x) => familyBodies[`${r.method} ${r.url}`]?.(x) ?? r.contract.sample?.body,
    ok: Math.min(...r.statuses.filter((s) => s >= 200 && s < 300)),
    closedReadable: closedReadable.has(`${r.method} ${r.url}`),
  }));
}

/** A parent with the flag and a fully furnished sub-account: key, member, a number of its own, one left on the parent. */
export async function furnishedFamily(app: FastifyInstance): Promise<{ parent: TestAccount; child: TestAccount; target: Target }> {
  const parent = await createAccount(app, { credits: 100, hierarchy: true });
  const created = await call(app, parent.apiKey, 'POST', '/accounts', { business_name: 'Child', seed_credits: 10, email: `c-${randomUUID()}@x.test` });
  const id = created.body.id as string;
  const key = await call(app, parent.apiKey, 'POST', `/account/${id}/key`, { name: 'k' });
  // The first user is the sub-account's owner, whom nobody removes: the member the routes act on comes second.
  await call(app, parent.apiKey, 'POST', `/account/${id}/users`, { email: 'owner@x.test' });
  const member = await call(app, parent.apiKey, 'POST', `/account/${id}/users`, { email: 'member@x.test' });
  const [parentNumber, childNumber] = [mobile(), mobile()];
  for (const n of [parentNumber, childNumber]) await admin(app, 'POST', '/admin/numbers', { number: n, country: 'AU', account_id: parent.accountId });
  await call(app, parent.apiKey, 'POST', `/account/${id}/numbers/assign`, { numbers: childNumber });
  const child = { accountId: id, apiKey: key.body.key as string, keyId: key.body.id as string };
  return { parent, child, target: { id, keyId: child.keyId, memberId: (member.body.user as { id: string }).id, parentNumber, childNumber } };
}

