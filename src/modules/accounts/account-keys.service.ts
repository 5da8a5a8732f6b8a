import type { Db } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import type { KeyService } from '../keys/keys.service.ts';
import type { KeyInput } from '../keys/keys.schemas.ts';
import { loadManagedAccount } from './access.ts';

// API keys of a sub-account, managed by its parent: the parent's right to manage it is checked here, then the
// keys service does the work.
export function createAccountKeyService(deps: { db: Db; keys: KeyService }) {
  const { db, keys } = deps;

  async function list(actor: Actor, accountId: string) {
    await loadManagedAccount(db, actor, accountId, { write: false });
    return keys.keysOf(accountId);
  }

  async function create(actor: Actor, accountId: string, input: KeyInput) {
    await loadManagedAccount(db, actor, accountId, { write: true });
    return keys.issue(actor, accountId, input);
  }

  /** Revoking an already revoked key of the sub-account is a no-op success; another account's key id is 404. */
  async function revoke(actor: Actor, accountId: string, keyId: string) {
    await loadManagedAccount(db, actor, accountId, { write: true });
    return keys.drop(actor, accountId, keyId);
  }

  return { list, create, revoke };
}

export type AccountKeyService = ReturnType<typeof createAccountKeyService>;
