import type { Actor } from '../../platform/actor.ts';
import { AppError } from '../../platform/errors.ts';
import { permissionsOf, requireWithin, type Permission, type Role, type RoleHolder } from '../../platform/permissions.ts';

// The rules of a team (decision 0065): one owner, whom nobody removes or demotes and who alone hands the account
// to an admin; nobody changes themselves; and a caller gives, takes away or touches only what it holds itself.

export interface MemberState {
  role: Role;
  canSend: boolean;
  canBilling: boolean;
}

/** Permissions another caller could hand out (the owner's own right is never handed out, only transferred). */
export const grantable = (state: RoleHolder): Permission[] => permissionsOf(state).filter((p) => p !== 'owner');

/** An admin or the owner holds every flag; a member holds what is asked, else what it had, else the defaults. */
export function settle(role: Role, flags: { can_send?: boolean; can_billing?: boolean }, had?: MemberState): MemberState {
  if (role !== 'member') {
    if (flags.can_send === false || flags.can_billing === false) {
      throw new AppError('validation_failed', 'An admin may always send and move credits: make them a member to take that away', {
        details: [{ field: flags.can_send === false ? 'can_send' : 'can_billing', message: 'applies to members only' }],
      });
    }
    return { role, canSend: true, canBilling: true };
  }
  return { role, canSend: flags.can_send ?? had?.canSend ?? true, canBilling: flags.can_billing ?? had?.canBilling ?? false };
}

/** The checks before any change to a member who is not the caller: not oneself, not the owner, nothing beyond the caller. */
export function assertMayChange(actor: Actor, target: { id: string } & MemberState, doing: 'remove' | 'change'): void {
  if (actor.user?.id === target.id) {
    throw new AppError('forbidden', doing === 'remove' ? 'You cannot remove yourself' : 'You cannot change your own role or permissions');
  }
  if (target.role === 'owner') {
    throw new AppError('permission_denied', doing === 'remove'
      ? 'Nobody can remove the account\'s owner: the owner can hand the account to an admin first'
      : 'Nobody can change the owner\'s role: the owner can hand the account to an admin');
  }
  requireWithin(actor, grantable(target), `${doing} a team member who holds a permission you do not have`);
}

/** A caller may give a member only permissions it holds itself. */
export function assertMayGrant(actor: Actor, state: MemberState): void {
  requireWithin(actor, grantable(state), 'give a team member a permission you do not have');
}

export const memberFields = (s: MemberState) => ({ role: s.role, can_send: s.canSend, can_billing: s.canBilling });
