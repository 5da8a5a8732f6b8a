import type { Scope } from '../modules/keys/scopes.ts';
import type { AccountSettings } from '../modules/settings/account-settings.ts';

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
  canSend: boolean;
  canBilling: boolean;
}

export interface Actor {
  accountId: string;
  /** The API key's id; for a session, `session:<user id>` (rate limits are per key or per signed-in user). */
  keyId: string;
  /** What this key may do (read, send, manage). */
  scopes: Scope[];
  account: AccountSnapshot;
  /** Set when the caller is a signed-in dashboard user rather than an API key (a key may do everything). */
  user?: SessionUser;
  /** The request's source address (request.ip), set per request by auth.ts: the audit log records it. */
  address?: string;
}
