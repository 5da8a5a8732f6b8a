// Roles and permissions in words (docs/permissions.md), and what the signed-in user may do to a team member: the
// same rules the API applies, so the page never offers a button that ends in a refusal.

import type { Res } from '../lib/api.ts';

export type Role = Res<'/team'>['users'][number]['role'];
export type Permission = Res<'/session'>['user']['permissions'][number];

export type Member = Pick<Res<'/team'>['users'][number], 'id' | 'role' | 'can_send' | 'can_billing' | 'source'>;

export const ROLE_WORDS: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/** What a member may do, in a sentence. */
export function abilities(m: { role: Role; can_send: boolean; can_billing: boolean }): string {
  if (m.role === 'owner') return 'Everything, and hand the account over';
  if (m.role === 'admin') return 'Everything but hand the account over: team, keys, settings, sending and billing';
  const can = ['see the account', m.can_send && 'send messages', m.can_billing && 'move credits and buy numbers'].filter(Boolean);
  return `${can.join(', ').replace(/^./, (c) => c.toUpperCase())}${can.length === 1 ? ' only' : ''}`;
}

/** The permissions a member holds (the API's permissionsOf). */
export function permissionsOf(m: { role: Role; can_send: boolean; can_billing: boolean }): Permission[] {
  if (m.role === 'owner') return ['read', 'send', 'billing', 'manage', 'owner'];
  if (m.role === 'admin') return ['read', 'send', 'billing', 'manage'];
  return ['read', ...(m.can_send ? ['send' as const] : []), ...(m.can_billing ? ['billing' as const] : [])];
}

/** Why the signed-in user may not change or remove this member, or null when they may. */
export function whyNot(me: { id: string; permissions: Permission[] }, m: Member): string | null {
  if (m.source === 'parent') return 'A member of the parent account';
  if (m.id === me.id) return 'You: nobody changes their own role';
  if (m.role === 'owner') return 'The owner: nobody can remove or change them';
  if (!me.permissions.includes('manage')) return 'Only admins and the owner change the team';
  const lacking = permissionsOf(m).filter((p) => p !== 'owner' && !me.permissions.includes(p));
  if (lacking.length > 0) return 'They can do things you cannot';
  return null;
}
