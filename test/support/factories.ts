import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { ADMIN_TOKEN } from './app.ts';

export interface TestAccount {
  accountId: string;
  apiKey: string;
  keyId: string;
  /** the owner's invite link (the owner is the account's first user): see support/sessions.ts */
  ownerInviteUrl?: string;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export const adminAuth = bearer(ADMIN_TOKEN);

export async function admin(app: FastifyInstance, method: InjectOptions['method'], url: string, payload?: object) {
  const res = await app.inject({ method, url, headers: adminAuth, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

/** A fresh account with its own key: every test makes its own, so tests never see each other's rows. */
export async function createAccount(
  app: FastifyInstance,
  opts: { credits?: number; abn?: string; hierarchy?: boolean; name?: string } = {},
): Promise<TestAccount> {
  const res = await admin(app, 'POST', '/admin/accounts', {
    business_name: opts.name ?? `Test Co ${randomUUID().slice(0, 8)}`,
    email: `owner-${randomUUID()}@example.com`,
    ...(opts.credits !== undefined ? { credits: opts.credits } : {}),
    ...(opts.abn ? { abn: opts.abn } : {}),
    ...(opts.hierarchy ? { hierarchy_enabled: true } : {}),
  });
  if (res.status !== 201) throw new Error(`account create failed: ${JSON.stringify(res.body)}`);
  return {
    accountId: res.body.account_id as string, apiKey: res.body.api_key as string, keyId: res.body.key_id as string,
    ownerInviteUrl: res.body.owner_invite_url as string,
  };
}

/** A request as the given account; `payload` objects are sent as JSON. */
export async function call(app: FastifyInstance, key: string, method: InjectOptions['method'], url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method, url, headers: { ...bearer(key), ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  let body: Record<string, unknown> = {};
  try { body = res.json(); } catch { /* not JSON */ }
  return { status: res.statusCode, body, headers: res.headers };
}

// Test files share one PostgreSQL database, where numbers are unique across accounts (the number pool). Workers
// running at the same time get different prefixes (0410 + worker id); files run one after another in a worker
// start their counter at a random point, so a clash needs two runs of a thousand numbers to overlap.
const prefix = 410 + (Number(process.env.VITEST_POOL_ID ?? 0) % 30);
let sequence = Math.floor(Math.random() * 1_000_000);

/** A valid AU mobile, unique among running tests, never ending in a simulator test number (996–999). */
export function mobile(): string {
  do sequence = (sequence + 1) % 1_000_000; while (sequence % 1000 >= 996);
  return `+61${prefix}${String(sequence).padStart(6, '0')}`;
}
