import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GUIDE_PATH, POLICY_PATH } from './route-policy-files.ts';
import { parsePolicy, renderGuide } from './route-policy.ts';

describe('the route policy table', () => {
  const policy = parsePolicy(readFileSync(POLICY_PATH, 'utf8'));

  it('lists each route once', () => {
    const keys = policy.map((l) => `${l.method} ${l.url}`);
    expect(keys.length).toBeGreaterThan(50);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is what the owner\'s guide in docs/ is made from, and the guide is current (npm run docs:permissions)', () => {
    expect(readFileSync(GUIDE_PATH, 'utf8')).toBe(renderGuide(policy));
  });

  it('refuses a line it cannot read, and an unknown permission', () => {
    expect(() => parsePolicy('GET /x read See x\n')).not.toThrow();
    expect(() => parsePolicy('GET /x\n')).toThrow(/line 1/);
    expect(() => parsePolicy('# c\nPOST /x admin Do x\n')).toThrow(/line 2/);
  });
});
