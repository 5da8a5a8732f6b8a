import type { KeyRow } from './keys.repo.ts';

/** A newly created key as the API returns it: the only time the full key is shown. */
export function toKeyCreated(key: KeyRow & { key: string }) {
  return {
    id: key.id, key: key.key, prefix: key.prefix, name: key.name, scopes: key.scopes, created_at: key.createdAt.toISOString(),
  };
}
