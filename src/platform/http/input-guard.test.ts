import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findInputProblem, MAX_BODY_DEPTH } from './input-guard.ts';

describe('findInputProblem', () => {
  it('names the field holding a NUL or a lone surrogate, at any depth', () => {
    expect(findInputProblem({ to: '+61412345678', message: 'a\u0000b' })).toEqual({ field: 'message', message: expect.stringContaining('NUL') });
    expect(findInputProblem({ recipients: [{ phone: 'x', merge_data: { name: '\ud800' } }] })?.field).toBe('recipients.0.merge_data.name');
    expect(findInputProblem({ a: 'x\udfff' })?.field).toBe('a');
    expect(findInputProblem({ ['k\u0000']: 1 })?.field).toBe('k\u0000');
  });

  it('accepts well-formed text, pairs included', () => {
    expect(findInputProblem({ message: 'Kia ora 🙂 €', n: 12, list: ['a', null, true] })).toBeNull();
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => findInputProblem({ s: s.replaceAll('\u0000', '') }) === null));
  });

  it('refuses __proto__, constructor and prototype keys', () => {
    for (const text of ['{"__proto__":{"x":1}}', '{"a":{"constructor":{"prototype":{}}}}', '{"prototype":1}']) {
      expect(findInputProblem(JSON.parse(text))?.message).toBe('is not an allowed field name');
    }
  });

  it('refuses numbers JSON.parse could not hold', () => {
    expect(findInputProblem(JSON.parse('{"amount":1e309}'))?.field).toBe('amount');
    expect(findInputProblem(JSON.parse('{"amount":99999999999999999999}'))?.field).toBe('amount');
    expect(findInputProblem({ amount: -5 })).toBeNull();
  });

  it('refuses nesting past the cap without recursing (150,000 levels)', () => {
    const deep = JSON.parse('['.repeat(150_000) + ']'.repeat(150_000));
    expect(findInputProblem(deep)?.message).toContain(`${MAX_BODY_DEPTH} levels`);
    const ok = JSON.parse('['.repeat(MAX_BODY_DEPTH) + ']'.repeat(MAX_BODY_DEPTH));
    expect(findInputProblem(ok)).toBeNull();
  });
});
