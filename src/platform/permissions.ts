import { AppError } from './errors.ts';

// Who may do what inside an account: one set of permissions for dashboard users and API keys alike
// (docs/permissions.md, decision 0065). `read` sees; `send` spends credits on messages; `billing` moves credits and
// buys or moves numbers; `manage` changes the account (team, keys, webhooks, settings, sub-accounts, opt-outs by
// hand); `owner` is the owner's own right (handing the account over), which no key and no other user holds.
export const PERMISSIONS = ['read', 'send', 'billing', 'manage', 'owner'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What an API key may hold: every permission but the owner's. */
export const KEY_SCOPES = ['read', 'send', 'billing', 'manage'] as const;
export type Scope = (typeof KEY_SCOPES)[number];

/**
 * What a route needs, declared beside it (`config.scope`): a permission, or `self` for the signed-in user's own
 * settings (their second factor), which every user may change about themselves and no key can.
 */
export const ROUTE_PERMISSIONS = [...PERMISSIONS, 'self'] as const;
export type RoutePermission = (typeof ROUTE_PERMISSIONS)[number];

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export interface RoleHolder {
  role: Role;
  canSend: boolean;
  canBilling: boolean;
}

/** A user's permissions: the owner holds all, an admin all but the owner's, a member `read` plus its flags. */
export function permissionsOf(user: RoleHolder): Permission[] {
  if (user.role === 'owner') return [...PERMISSIONS];
  if (user.role === 'admin') return [...KEY_SCOPES];
  return ['read', ...(user.canSend ? ['send' as const] : []), ...(user.canBilling ? ['billing' as const] : [])];
}

/** The caller as the permission check sees it: what it holds, and whether it is a signed-in user or a key. */
export interface Holder {
  permissions: readonly Permission[];
  user?: unknown;
}

const WORDS: Record<Permission, string> = {
  read: 'see this account',
  send: 'send messages',
  billing: 'move credits or buy and move numbers',
  manage: 'manage the account (team, keys, webhooks, settings, sub-accounts, opt-outs)',
  owner: 'do what only the account\'s owner can',
};

/** The refusal for a missing permission: a user's is `permission_denied`, a key's `insufficient_scope`. */
export function refusal(holder: Holder, needed: Permission, what = WORDS[needed]): AppError {
  if (holder.user) return new AppError('permission_denied', `You do not have permission to ${what} (needs "${needed}")`, { required_permission: needed });
  return new AppError('insufficient_scope', `This API key lacks the "${needed}" scope`, { required_scope: needed });
}

/** The one check every route (REST and MCP alike) runs before its handler: the route's declared permission. */
export function authorize(holder: Holder, needed: RoutePermission): void {
  if (needed === 'self') {
    if (!holder.user) throw new AppError('forbidden', 'This belongs to a dashboard user: sign in to the dashboard to change it');
    return;
  }
  if (!holder.permissions.includes(needed)) throw refusal(holder, needed);
}

/** A caller hands out only what it holds: a key it creates, a user it invites, a role or flag it sets. */
export function requireWithin(holder: Holder, wanted: readonly Permission[], what?: string): void {
  for (const p of wanted) if (!holder.permissions.includes(p)) throw refusal(holder, p, what);
}

/** The key scopes a key is stored with: known ones only, each once, in canonical order; none given is all. */
export function normaliseScopes(given: readonly string[] | undefined): Scope[] {
  if (given === undefined) return [...KEY_SCOPES];
  return KEY_SCOPES.filter((s) => given.includes(s));
}

/** What a key keeps when the user it belongs to now holds `held`: the scopes both have. */
export function cutScopes(scopes: readonly Scope[], held: readonly Permission[]): Scope[] {
  return scopes.filter((s) => held.includes(s));
}
