import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MIN_PASSWORD_LENGTH, passwordProblem } from './password-policy.ts';

describe('passwordProblem', () => {
  it('refuses short, common, repeated and email-based passwords', () => {
    expect(passwordProblem('short', 'a@b.co')).toBe('too_short');
    expect(passwordProblem('elevenchars', 'a@b.co')).toBe('too_short');
    expect(passwordProblem('Password1234', 'a@b.co')).toBe('too_common');
    expect(passwordProblem('zzzzzzzzzzzzzz', 'a@b.co')).toBe('too_common');
    expect(passwordProblem('ana.smith-is-great', 'ana.smith@example.com')).toBe('contains_email');
    expect(passwordProblem('x'.repeat(201) + 'y', 'a@b.co')).toBe('too_long');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(passwordProblem('😀'.repeat(11), 'a@b.co')).toBe('too_short');
    expect(passwordProblem('😀😁'.repeat(6), 'a@b.co')).toBeNull();
  });

  it('accepts any long enough password that is not on the list', () => {
    fc.assert(fc.property(fc.string({ minLength: MIN_PASSWORD_LENGTH, maxLength: 60 }), (tail) => {
      const pw = `harbour-${tail}-cafe`;
      expect(passwordProblem(pw, 'owner@example.com')).toBeNull();
    }));
  });
});
