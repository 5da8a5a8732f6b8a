import { KEY_SCOPES, normaliseScopes, type Scope } from '../../platform/permissions.ts';

// What an API key may do: the key scopes are the account's permissions but the owner's (platform/permissions.ts).
// `read` sees, `send` spends credits on messages, `billing` moves credits and numbers, `manage` changes the account.
export const SCOPES = KEY_SCOPES;
export type { Scope };
export { normaliseScopes };

/** Every key created without `scopes` holds all four; keys that held `manage` before `billing` existed hold it too. */
export const ALL_SCOPES: readonly Scope[] = KEY_SCOPES;
