import type { Permission, Role } from './permissions.ts';
import type { AccountSettings } from '../common/account-settings.ts';

// Who is calling: the account behind the API key, as read at the start of the request.
export interface AccountSnapshot {
  id: string;
  parentId: string | null;
  businessName: string;
  abn: string | null;
  accountStatus: string;
  hierarchyEnabled: boolean;
  dailyLimit: number | null;
  managedByParent: boolean;
  optoutExempt: boolean;
  inheritParentSenders: boolean;
  /** quiet hours, time zone, link tracking: read with the key, so sending needs no query for them */
  settings: AccountSettings;
}

/** A dashboard user signed in with a session: the same rules as a key, plus the user's own permissions. */
export interface SessionUser {
  id: string;
  email: string;
  role: Role;
  canSend: boolean;
  canBilling: boolean;
  /** They sign in with a second factor: where the account requires one, a user without it may only enrol. */
  twoFactor: boolean;
}

export interface Actor {
  accountId: string;
  /** The API key's id; for a session, `session:<user id>` (rate limits are per key or per signed-in user). */
  keyId: string;
  /**
   * What the caller may do (platform/permissions.ts): a key's scopes, or a signed-in user's permissions from their
   * role and flags. Every route's declared permission is checked against this one list (`authorize`).
   */
  permissions: Permission[];
  /** The user a key belongs to (it carries at most their permissions), or the signed-in user; null for other keys. */
  userId: string | null;
  account: AccountSnapshot;
  /** Set when the caller is a signed-in dashboard user rather than an API key. */
  user?: SessionUser;
  /** The request's source address (request.ip), set per request by auth.ts: the audit log records it. */
  address?: string;
}
