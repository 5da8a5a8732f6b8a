import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_MESSAGE_CHARS, codePointLength, countParts } from './parts.ts';

const EMOJI = '😀'; // U+1F600: two UTF-16 code units, one code point

describe('codePointLength', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['hello', 5],
    [EMOJI, 1],
    [`a${EMOJI}b`, 3],
    ['€', 1],
    ['é', 1], // precomposed
    ['e\u0301', 2], // combining accent is its own code point
    ['👍🏽', 2], // emoji plus skin-tone modifier
    ['👨‍👩‍👧', 5], // ZWJ sequence: 3 emoji, 2 joiners
    ['\ud800', 1], // lone surrogate
  ])('%j has %i code points', (text, expected) => {
    expect(codePointLength(text)).toBe(expected);
  });

  it('matches the spread count for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(codePointLength(text)).toBe([...text].length);
      }),
    );
  });
});

describe('countParts', () => {
  it.each([
    [0, 1],
    [1, 1],
    [154, 1],
    [155, 1],
    [160, 1],
    [161, 2],
    [308, 2],
    [309, 3],
    [462, 3],
    [463, 4],
    [616, 4],
    [617, 5],
    [1540, 10],
    [1541, 11],
    [1600, 11],
  ])('%i ASCII characters is %i part(s)', (length, parts) => {
    expect(countParts('x'.repeat(length))).toBe(parts);
  });

  it.each([
    [160, 1],
    [161, 2],
    [308, 2],
    [309, 3],
    [1600, 11],
  ])('%i emoji is %i part(s): surrogate pairs count once', (length, parts) => {
    expect(countParts(EMOJI.repeat(length))).toBe(parts);
  });

  it('counts a mix of emoji and ASCII in code points', () => {
    expect(countParts(`${'a'.repeat(159)}${EMOJI}`)).toBe(1);
    expect(countParts(`${'a'.repeat(160)}${EMOJI}`)).toBe(2);
  });

  it('allows at most 1,600 characters', () => {
    expect(MAX_MESSAGE_CHARS).toBe(1600);
  });

  it('follows the rule for every length up to the maximum', () => {
    for (let n = 0; n <= MAX_MESSAGE_CHARS; n++) {
      expect(countParts('a'.repeat(n))).toBe(n <= 160 ? 1 : Math.ceil(n / 154));
    }
  });

  it('never decreases as a message grows, and never exceeds one part per 154 characters beyond one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 1600 }), fc.string({ maxLength: 200 }), (a, b) => {
        const parts = countParts(a);
        expect(countParts(a + b)).toBeGreaterThanOrEqual(parts);
        expect(parts).toBeGreaterThanOrEqual(1);
        expect(parts).toBeLessThanOrEqual(Math.max(1, Math.ceil(codePointLength(a) / 154)));
      }),
    );
  });
});
