import { describe, expect, it } from 'vitest';
import { uuidv7, UUID_PATTERN } from './ids.ts';

describe('uuidv7', () => {
  it('is a version 7, variant 1 UUID carrying the time', () => {
    const now = Date.UTC(2026, 10, 21, 5, 0, 0);
    const id = uuidv7(now);
    expect(id).toMatch(new RegExp(UUID_PATTERN));
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
  });

  it('sorts in creation order, also within one millisecond, and never repeats', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('spreads its random bits', () => {
    const tails = new Set(Array.from({ length: 1000 }, () => uuidv7().slice(-12)));
    expect(tails.size).toBe(1000);
  });
});
