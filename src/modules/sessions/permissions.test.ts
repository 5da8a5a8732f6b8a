import { describe, expect, it } from 'vitest';
import { permissionFor } from './permissions.ts';

describe('permissionFor', () => {
  it('gates sending with can_send and money with can_billing', () => {
    expect(permissionFor('POST', '/send')).toBe('send');
    expect(permissionFor('post', '/send-batch')).toBe('send');
    expect(permissionFor('POST', '/account/:id/credits/allocate')).toBe('billing');
    expect(permissionFor('POST', '/numbers/purchase')).toBe('billing');
  });

  it('leaves reads and other routes to every member', () => {
    expect(permissionFor('GET', '/send')).toBeNull();
    expect(permissionFor('GET', '/message/:id')).toBeNull();
    expect(permissionFor('POST', '/keys')).toBeNull();
    expect(permissionFor('POST', undefined)).toBeNull();
  });

});
