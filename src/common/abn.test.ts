import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { abnChecksumValid, checkedAbn } from './abn.ts';

describe('the ABN checksum', () => {
  it.each(['51824753556', '53004085616', '33102417032'])('accepts %s', (abn) => {
    expect(abnChecksumValid(abn)).toBe(true);
  });

  it.each(['51824753557', '12345678901', '00000000000', '5182475355', 'abcdefghijk'])('refuses %s', (abn) => {
    expect(abnChecksumValid(abn)).toBe(false);
  });

  it('catches every change of one digit of a valid ABN', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1, max: 9 }), (position, step) => {
      const digits = [...'51824753556'];
      digits[position] = String((Number(digits[position]) + step) % 10);
      expect(abnChecksumValid(digits.join(''))).toBe(false);
    }));
  });

  it('reads spaces away and refuses a bad one with validation_failed on abn', () => {
    expect(checkedAbn('51 824 753 556')).toBe('51824753556');
    expect(() => checkedAbn('51 824 753 557')).toThrow(expect.objectContaining({ code: 'validation_failed', extra: expect.objectContaining({ details: [expect.objectContaining({ field: 'abn' })] }) }));
  });
});
