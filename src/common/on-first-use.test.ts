import { describe, expect, it } from 'vitest';
import { onFirstUse } from './on-first-use.ts';

describe('onFirstUse', () => {
  it('builds nothing until the first call, then once, and answers as the built function', () => {
    let builds = 0;
    const double = onFirstUse(() => { builds += 1; return (n: number) => n * 2; });
    expect(builds).toBe(0);
    expect(double(2)).toBe(4);
    expect(double(5)).toBe(10);
    expect(builds).toBe(1);
  });

  it('carries the errors the built function sets on itself (an ajv validator) after each call', () => {
    const validate = Object.assign((v: unknown) => {
      validate.errors = typeof v === 'number' ? null : [{ message: 'must be number' }];
      return typeof v === 'number';
    }, { errors: null as null | Array<{ message: string }> });
    const lazy = onFirstUse(() => validate) as typeof validate;
    expect(lazy('x')).toBe(false);
    expect(lazy.errors).toEqual([{ message: 'must be number' }]);
    expect(lazy(1)).toBe(true);
    expect(lazy.errors).toBeNull();
  });
});
