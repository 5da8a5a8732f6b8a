import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, KEY_PREFIX, looksLikeApiKey } from './api-key.ts';

describe('api keys', () => {
  it('start with the fixed prefix and expose their leading characters', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key.startsWith(KEY_PREFIX)).toBe(true);
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix).toHaveLength(12);
    expect(hash).toBe(hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(looksLikeApiKey(key)).toBe(true);
  });

  it('are unique and use the whole alphabet', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey().key));
    expect(keys.size).toBe(2000);
    const chars = new Set([...keys].flatMap((k) => [...k.slice(KEY_PREFIX.length)]));
    expect(chars.size).toBe(62);
  });

  it('rejects tokens of the wrong shape', () => {
    expect(looksLikeApiKey('')).toBe(false);
    expect(looksLikeApiKey('tsm_short')).toBe(false);
    expect(looksLikeApiKey('xxx_' + 'a'.repeat(32))).toBe(false);
    expect(looksLikeApiKey('tsm_' + 'a'.repeat(31) + '!')).toBe(false);
  });
});
