import { describe, expect, it } from 'vitest';
import { abilities, whyNot, type Permission } from './team-words.ts';

const owner = { id: 'o', permissions: ['read', 'send', 'billing', 'manage', 'owner'] as Permission[] };
const member = (over: Partial<{ id: string; role: 'owner' | 'admin' | 'member'; can_send: boolean; can_billing: boolean; source: string }> = {}) => ({
  id: 'm', role: 'member' as const, can_send: false, can_billing: false, source: 'direct', ...over,
});

describe('the Team page\'s words and rules', () => {
  it('says what each role can do', () => {
    expect(abilities(member())).toBe('See the account only');
    expect(abilities(member({ can_send: true, can_billing: true }))).toBe('See the account, send messages, move credits and buy numbers');
    expect(abilities(member({ role: 'owner' }))).toBe('Everything, and hand the account over');
  });

  it('offers no action the API would refuse, and says why', () => {
    expect(whyNot(owner, member())).toBeNull();
    expect(whyNot(owner, member({ id: 'o' }))).toMatch(/^You/);
    expect(whyNot(owner, member({ role: 'owner', id: 'x' }))).toMatch(/owner/);
    expect(whyNot(owner, member({ source: 'parent' }))).toMatch(/parent/);
    expect(whyNot({ id: 'a', permissions: ['read', 'send'] }, member())).toMatch(/Only admins/);
    expect(whyNot({ id: 'k', permissions: ['read', 'manage'] }, member({ can_send: true }))).toMatch(/cannot/);
  });
});
