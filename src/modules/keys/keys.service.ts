import type { Db } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { notFound } from '../../platform/errors.ts';
import { normaliseScopes, requireWithin } from '../../platform/permissions.ts';
import { record } from '../../platform/audit/record.ts';
import { insertKey, keyExists, listKeys, revokeKey } from './keys.repo.ts';
import { toKeyCreated } from './key-view.ts';
import type { KeyInput } from './keys.schemas.ts';

// An account's API keys. A new key works at once (the authenticator reads the database on every request); a
// revoked one fails on its very next request. Hashes never leave the repo. The caller's own keys are managed here
// (GET/POST /keys, DELETE /keys/{keyId}: the dashboard's Developers page); a sub-account's go through
// accounts/account-keys.service.ts, which checks the parent manages it first.
export function createKeyService(deps: { db: Db }) {
  const { db } = deps;

  async function keysOf(accountId: string) {
    const keys = await listKeys(db, accountId);
    return {
      keys: keys.map((k) => ({
        id: k.id, name: k.name, prefix: k.prefix, scopes: k.scopes, revoked_at: k.revokedAt?.toISOString() ?? null,
        created_at: k.createdAt.toISOString(), last_used_at: k.lastUsedAt?.toISOString() ?? null, created_by_user: k.createdByUser,
      })),
    };
  }

  /**
   * Without `scopes` the key gets all four; the caller may hand out only permissions it holds itself. The key
   * belongs to the signed-in user who made it, or to the user the calling key belongs to, so it is cut down or
   * revoked with them (decision 0065).
   */
  async function issue(actor: Actor, accountId: string, input: KeyInput) {
    const scopes = normaliseScopes(input.scopes);
    requireWithin(actor, scopes, 'give an API key a permission you do not have');
    return db.transaction(async (tx) => {
      const key = await insertKey(tx, accountId, input.name?.trim() || 'API key', scopes, actor.userId);
      await record(tx, {
        accountId, actor, action: 'key.created', target: { type: 'api_key', id: key.id },
        after: { name: key.name, prefix: key.prefix, scopes: key.scopes },
      });
      return toKeyCreated(key);
    });
  }

  /** Revoking an already revoked key is a no-op success; another account's key id is 404. */
  async function drop(actor: Actor, accountId: string, keyId: string) {
    if (!(await keyExists(db, accountId, keyId))) throw notFound('API key');
    await db.transaction(async (tx) => {
      if (await revokeKey(tx, accountId, keyId)) {
        await record(tx, { accountId, actor, action: 'key.revoked', target: { type: 'api_key', id: keyId }, before: { revoked: false }, after: { revoked: true } });
      }
    });
    return { ok: true };
  }

  return {
    /** The caller's own keys. Rotation without downtime is create the new key, deploy it, revoke the old one. */
    list: (actor: Actor) => keysOf(actor.accountId),
    create: (actor: Actor, input: KeyInput) => issue(actor, actor.accountId, input),
    revoke: (actor: Actor, keyId: string) => drop(actor, actor.accountId, keyId),
    /** Another account's keys, for a caller already checked to manage it. */
    keysOf, issue, drop,
  };
}

export type KeyService = ReturnType<typeof createKeyService>;

// Key statements other modules run inside their own transaction: the operator's keys, a closed sub-account's,
// a member's keys cut down with their role.
export { cutKeysOfUser, insertKey, keyExists, revokeAllKeys, revokeKey } from './keys.repo.ts';
