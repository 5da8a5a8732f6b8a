import { describe, expect, it } from 'vitest';
import { createConcatRefs } from './concat-ref.ts';

describe('concatenation references', () => {
  it('never repeats for one destination within 256 consecutive messages (8-bit)', () => {
    const refs = createConcatRefs(8);
    const seen = Array.from({ length: 256 }, (_, i) => refs.refFor(`m${i}`, '+61412345678'));
    expect(new Set(seen).size).toBe(256);
    expect(seen.every((r) => r >= 0 && r <= 255)).toBe(true);
    // The 257th wraps to the first again: a modulo-256 counter.
    expect(refs.refFor('m256', '+61412345678')).toBe(seen[0]);
  });

  it('counts each destination on its own, and a retry of the same message reuses its reference', () => {
    const refs = createConcatRefs(8, 100, () => 0);
    expect(refs.refFor('a', '+61400000001')).toBe(0);
    expect(refs.refFor('b', '+61400000001')).toBe(1);
    expect(refs.refFor('c', '+61400000002')).toBe(0);
    expect(refs.refFor('a', '+61400000001')).toBe(0);
    expect(refs.refFor('d', '+61400000001')).toBe(2);
  });

  it('runs modulo 65536 with 16-bit references', () => {
    const refs = createConcatRefs(16, 100, () => 0.99999);
    const first = refs.refFor('a', 'x');
    expect(first).toBe(65535);
    expect(refs.refFor('b', 'x')).toBe(0);
  });

  it('forgets the oldest entries beyond its bound', () => {
    const refs = createConcatRefs(8, 2, () => 0);
    refs.refFor('a', 'x');
    refs.refFor('b', 'y');
    refs.refFor('c', 'z');
    // 'x' and message 'a' were forgotten: x starts afresh.
    expect(refs.refFor('e', 'x')).toBe(0);
  });
});
