import { describe, expect, it } from 'vitest';
import { addressAllowed, generateCredentialSecret, parseCidr, passwordMatches, PASSWORD_LENGTH } from './credential-secret.ts';

describe('SMPP credential secrets', () => {
  it('fit the SMPP 3.4 field sizes and match only their own hash', () => {
    const a = generateCredentialSecret();
    const b = generateCredentialSecret();
    expect(a.systemId.length).toBeLessThanOrEqual(15);
    expect(a.password).toHaveLength(PASSWORD_LENGTH);
    expect(a.systemId).not.toBe(b.systemId);
    expect(passwordMatches(a.systemId, a.password, a.hash)).toBe(true);
    expect(passwordMatches(a.systemId, b.password, a.hash)).toBe(false);
    expect(passwordMatches(b.systemId, a.password, a.hash)).toBe(false);
  });
});

describe('allowed addresses', () => {
  it('reads addresses and CIDR blocks of both families', () => {
    expect(parseCidr('203.0.113.0/24')).toEqual({ address: '203.0.113.0', prefix: 24, family: 'ipv4' });
    expect(parseCidr('2001:db8::/32')).toEqual({ address: '2001:db8::', prefix: 32, family: 'ipv6' });
    expect(parseCidr('127.0.0.1')).toEqual({ address: '127.0.0.1', prefix: 32, family: 'ipv4' });
    for (const bad of ['203.0.113.0/33', 'example.com', '10.0.0.0/8/1', '10.0.0.0/x', '']) expect(parseCidr(bad)).toBeNull();
  });

  it('allows every address with no list, else only those inside a block', () => {
    expect(addressAllowed([], '198.51.100.7')).toBe(true);
    expect(addressAllowed(['203.0.113.0/24'], '203.0.113.9')).toBe(true);
    expect(addressAllowed(['203.0.113.0/24'], '::ffff:203.0.113.9')).toBe(true);
    expect(addressAllowed(['203.0.113.0/24'], '198.51.100.7')).toBe(false);
    expect(addressAllowed(['::1'], '::1')).toBe(true);
    expect(addressAllowed(['::1'], '127.0.0.1')).toBe(false);
  });
});
