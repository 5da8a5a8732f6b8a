import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { handsetKey, sameHandset } from './handset.ts';

describe('handset key', () => {
  it('gives national and international forms of one number the same key', () => {
    expect(handsetKey('0412345678')).toBe('12345678');
    expect(sameHandset('0412345678', '61412345678')).toBe(true);
    expect(sameHandset('+61 412 345 678', '0412345678')).toBe(true);
    expect(sameHandset('+6421555123', '021555123')).toBe(true);
  });

  it('tells different handsets apart', () => {
    expect(sameHandset('0412345678', '0412345679')).toBe(false);
    expect(sameHandset('61412345678', '61498765432')).toBe(false);
  });

  it('is its own key: a stored key compares equal to the number it came from', () => {
    fc.assert(fc.property(fc.stringMatching(/^\+?[0-9 ]{1,16}$/), (n) => {
      expect(handsetKey(handsetKey(n))).toBe(handsetKey(n));
      expect(sameHandset(handsetKey(n), n)).toBe(true);
    }));
  });
});
