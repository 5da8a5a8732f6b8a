import { describe, expect, it } from 'vitest';
import { parseSender, parseSenderId } from './sender.ts';

describe('parseSender', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['   ', null],
    ['+61412345678', { kind: 'number', e164: '+61412345678' }],
    ['0412 345 678', { kind: 'number', e164: '+61412345678' }],
    ['Tasman', { kind: 'alpha', senderId: 'Tasman' }],
    ['ACME Co', { kind: 'alpha', senderId: 'ACME Co' }],
    ['Shop24', { kind: 'alpha', senderId: 'Shop24' }],
  ])('%s', (raw, expected) => {
    expect(parseSender(raw as string | undefined, 'AU')).toEqual(expected);
  });

  it.each(['123', '+1 555 0100', 'ABCDEFGHIJKL', 'A', '12345678901', 'héllo', 'a\u0000b'])('refuses %s', (raw) => {
    expect(parseSender(raw, 'AU')).toBe('invalid');
  });
});

describe('parseSenderId', () => {
  it.each(['Tasman', 'ACME Co', 'B&B', 'Shop-24'])('takes %s', (raw) => {
    expect(parseSenderId(` ${raw} `)).toBe(raw);
  });

  it.each(['AB', '0412345678', '12345', 'ABCDEFGHIJKL', 'Caf\u00e9', ''])('refuses %s as validation_failed', (raw) => {
    expect(() => parseSenderId(raw)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
