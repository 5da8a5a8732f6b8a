import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { preparedRows, type Executor } from '../../platform/db/client.ts';
import { apiKeys } from '../../platform/db/schema/index.ts';
import type { Actor } from '../../platform/actor.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { generateApiKey } from './api-key.ts';
import { ALL_SCOPES, type Scope } from './scopes.ts';
import type { Permission } from '../../platform/permissions.ts';
import { readSettings } from '../settings/account-settings.ts';

export interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  scopes: Scope[];
  /** the user the key belongs to (it holds at most their permissions), null for keys of nobody in particular */
  createdByUser: string | null;
}

export async function insertKey(
  db: Executor, accountId: string, name: string, scopes: readonly Scope[] = ALL_SCOPES, createdByUser: string | null = null,
): Promise<KeyRow & { key: string }> {
  const { key, prefix, hash } = generateApiKey();
  const [row] = await db.insert(apiKeys).values({ id: uuidv7(), accountId, name, prefix, hash, scopes: [...scopes], createdByUser }).returning();
  return { ...row!, scopes: row!.scopes as Scope[], key };
}

export async function listKeys(db: Executor, accountId: string): Promise<KeyRow[]> {
  return db.select({
    id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt,
    revokedAt: apiKeys.revokedAt, lastUsedAt: apiKeys.lastUsedAt, scopes: sql<Scope[]>`${apiKeys.scopes}`,
    createdByUser: apiKeys.createdByUser,
  }).from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt));
}

/** Revokes an active key; false when the account has no such active key. */
export async function revokeKey(db: Executor, accountId: string, keyId: string): Promise<boolean> {
  const done = await db.update(apiKeys).set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return done.length > 0;
}

export async function keyExists(db: Executor, accountId: string, keyId: string): Promise<boolean> {
  const found = await db.select({ id: apiKeys.id }).from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, keyId)));
  return found.length > 0;
}

export async function revokeAllKeys(db: Executor, accountId: string): Promise<void> {
  await db.update(apiKeys).set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
}

/**
 * Brings the active keys that belong to a user (in any account: a parent's user makes sub-account keys too) down to
 * the permissions the user holds now: a key keeps the scopes both have, and one left with none is revoked. An empty
 * `held` (the user was removed) revokes them all. Returns how many keys were revoked and how many narrowed.
 */
export async function cutKeysOfUser(db: Executor, userId: string, held: readonly Permission[]): Promise<{ revoked: number; narrowed: number }> {
  const heldArray = sql`${`{${held.join(',')}}`}::text[]`;
  const revoked = await db.update(apiKeys).set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.createdByUser, userId), isNull(apiKeys.revokedAt), sql`not (${apiKeys.scopes} && ${heldArray})`))
    .returning({ id: apiKeys.id });
  const narrowed = await db.update(apiKeys).set({ scopes: sql`array(select s from unnest(${apiKeys.scopes}) s where s = any(${heldArray}))` })
    .where(and(eq(apiKeys.createdByUser, userId), isNull(apiKeys.revokedAt), sql`not (${apiKeys.scopes} <@ ${heldArray})`))
    .returning({ id: apiKeys.id });
  return { revoked: revoked.length, narrowed: narrowed.length };
}

/** The account columns an actor carries, as selected by the key and session lookups. */
export interface ActorRow {
  key_id: string;
  /** a key's scopes, or a signed-in user's permissions */
  permissions: Permission[];
  /** the key's user, or the signed-in user */
  user_id: string | null;
  account_id: string;
  parent_id: string | null;
  business_name: string;
  abn: string | null;
  account_status: string;
  hierarchy_enabled: boolean;
  daily_limit: number | null;
  managed_by_parent: boolean;
  optout_exempt: boolean;
  inherit_parent_senders: boolean;
  /** accounts.settings, as stored (jsonb) */
  settings: unknown;
}

export function toActor(row: ActorRow): Actor {
  return {
    keyId: row.key_id,
    permissions: row.permissions,
    userId: row.user_id,
    accountId: row.account_id,
    account: {
      id: row.account_id,
      parentId: row.parent_id,
      businessName: row.business_name,
      abn: row.abn,
      accountStatus: row.account_status,
      hierarchyEnabled: row.hierarchy_enabled,
      dailyLimit: row.daily_limit,
      managedByParent: row.managed_by_parent,
      optoutExempt: row.optout_exempt,
      inheritParentSenders: row.inherit_parent_senders,
      settings: readSettings(row.settings),
    },
  };
}

/**
 * The status an account acts with (`a`, its parent joined as `p`): a suspended or closed parent suspends or closes
 * its whole subtree (one level deep: sub-accounts cannot have their own). Shared by keys and sessions.
 */
export const PARENT_JOIN = sql.raw('left join accounts p on p.id = a.parent_id');
export const SUBTREE_STATUS = sql.raw(`(case when a.account_status = 'suspended' or p.account_status = 'suspended' then 'suspended'
  else a.account_status end)`);
export const SUBTREE_OPEN = sql.raw(`a.account_status <> 'closed' and coalesce(p.account_status, 'active') <> 'closed'`);

/**
 * Resolves many key hashes in one indexed lookup (the authenticator groups concurrent requests). A key must be
 * active and its account open; hashes without such a key are absent from the map.
 */
export async function findActorsByHashes(db: Executor, hashes: string[]): Promise<Map<string, Actor>> {
  const found = await preparedRows<ActorRow & { hash: string }>(db, sql`
    select k.hash, k.id as key_id, k.scopes as permissions, k.created_by_user as user_id, a.id as account_id, a.parent_id, a.business_name, a.abn, ${SUBTREE_STATUS} as account_status,
           a.hierarchy_enabled, a.daily_limit, a.managed_by_parent, a.optout_exempt, a.inherit_parent_senders, a.settings
    from api_keys k join accounts a on a.id = k.account_id ${PARENT_JOIN}
    where k.hash in (select jsonb_array_elements_text(${JSON.stringify(hashes)}::jsonb))
      and k.revoked_at is null and ${SUBTREE_OPEN}`);
  return new Map(found.map((row) => [row.hash, toActor(row)]));
}

export async function touchKey(db: Executor, keyId: string): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, keyId));
}
