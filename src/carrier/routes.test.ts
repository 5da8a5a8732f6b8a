import { describe, expect, it } from 'vitest';
import { chooseRoute, countryOf, parseRoutes, routedCountries, senderType } from './routes.ts';

const ACCOUNT = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const rules = parseRoutes([
  { account: ACCOUNT, carriers: ['pinned'] },
  { country: 'NZ', sender: 'alphanumeric', carriers: ['nz-alpha', 'nz'] },
  { country: ['NZ'], carriers: ['nz', 'au'] },
  { prefix: ['+6140', '+6141'], carriers: ['au2'] },
  { carriers: ['au', 'nz'] },
], new Set(['pinned', 'nz-alpha', 'nz', 'au', 'au2']));

describe('routes', () => {
  it('the first rule whose every condition holds chooses, the fallback last', () => {
    expect(chooseRoute(rules, { to: '+64211234567', from: 'Acme' })).toEqual({ rule: 1, carriers: ['nz-alpha', 'nz'] });
    expect(chooseRoute(rules, { to: '+64211234567', from: '+61412345678' })).toEqual({ rule: 2, carriers: ['nz', 'au'] });
    expect(chooseRoute(rules, { to: '+61401234567', from: 'Acme' })).toEqual({ rule: 3, carriers: ['au2'] });
    expect(chooseRoute(rules, { to: '+61421234567', from: 'Acme' })).toEqual({ rule: 4, carriers: ['au', 'nz'] });
    expect(chooseRoute(rules, { to: '+64211234567', from: 'Acme', accountId: ACCOUNT })).toEqual({ rule: 0, carriers: ['pinned'] });
    expect(chooseRoute(rules, { to: '+64211234567', from: 'Acme', accountId: '00000000-0000-4000-8000-000000000000' }).rule).toBe(1);
  });

  it('tells senders and countries apart', () => {
    expect(senderType('Acme')).toBe('alphanumeric');
    expect(senderType('+61412345678')).toBe('number');
    expect(senderType('1234')).toBe('number');
    expect(senderType('Acme2024')).toBe('alphanumeric');
    expect(countryOf('+61412345678')).toBe('AU');
    expect(countryOf('+64211234567')).toBe('NZ');
    expect(countryOf('not a number')).toBeNull();
  });

  it('lists the countries a route names on its own, for the status page', () => {
    expect([...routedCountries(rules)]).toEqual([['NZ', ['nz', 'au']]]);
  });
});
