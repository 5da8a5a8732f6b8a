import { describe, expect, it } from 'vitest';
import { PermissionName, Role, ScopeName } from './http/schemas.ts';
import {
  authorize, cutScopes, KEY_SCOPES, normaliseScopes, PERMISSIONS, permissionsOf, requireWithin, ROLES, type Permission,
} from './permissions.ts';

const user = { id: 'u' };

describe('permissions', () => {
  it('of a role: the owner all, an admin all but owner, a member read plus its flags', () => {
    expect(permissionsOf({ role: 'owner', canSend: false, canBilling: false })).toEqual(['read', 'send', 'billing', 'manage', 'owner']);
    expect(permissionsOf({ role: 'admin', canSend: false, canBilling: false })).toEqual(['read', 'send', 'billing', 'manage']);
    expect(permissionsOf({ role: 'member', canSend: false, canBilling: false })).toEqual(['read']);
    expect(permissionsOf({ role: 'member', canSend: true, canBilling: false })).toEqual(['read', 'send']);
    expect(permissionsOf({ role: 'member', canSend: true, canBilling: true })).toEqual(['read', 'send', 'billing']);
  });

  it('one check: a user refused is permission_denied, a key insufficient_scope', () => {
    expect(() => authorize({ permissions: ['read'], user }, 'send')).toThrow(expect.objectContaining({ code: 'permission_denied' }));
    expect(() => authorize({ permissions: ['read'] }, 'send')).toThrow(expect.objectContaining({ code: 'insufficient_scope' }));
    expect(() => authorize({ permissions: ['read', 'send'] }, 'send')).not.toThrow();
    expect(() => authorize({ permissions: [...KEY_SCOPES] }, 'owner')).toThrow(expect.objectContaining({ code: 'insufficient_scope' }));
  });

  it('`self` is every signed-in user\'s and no key\'s', () => {
    expect(() => authorize({ permissions: ['read'], user }, 'self')).not.toThrow();
    expect(() => authorize({ permissions: [...KEY_SCOPES] }, 'self')).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });

  it('a grant within what the caller holds', () => {
    expect(() => requireWithin({ permissions: ['read', 'manage'] }, ['read', 'send'])).toThrow(expect.objectContaining({ code: 'insufficient_scope' }));
    expect(() => requireWithin({ permissions: ['read', 'manage'], user }, ['read'])).not.toThrow();
  });

  it('key scopes: none given is all four, known ones in order; a cut keeps what both hold', () => {
    expect(normaliseScopes(undefined)).toEqual(['read', 'send', 'billing', 'manage']);
    expect(normaliseScopes(['manage', 'read', 'read'])).toEqual(['read', 'manage']);
    expect(cutScopes(['read', 'send', 'manage'], ['read', 'send'] as Permission[])).toEqual(['read', 'send']);
    expect(cutScopes(['manage'], ['read'])).toEqual([]);
  });

  it('the API schemas name exactly these lists', () => {
    expect(PermissionName.anyOf.map((s) => s.const)).toEqual([...PERMISSIONS]);
    expect(ScopeName.anyOf.map((s) => s.const)).toEqual([...KEY_SCOPES]);
    expect(Role.anyOf.map((s) => s.const)).toEqual([...ROLES]);
  });
});
