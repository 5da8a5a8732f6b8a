import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeCursor, E164_KEY, encodeCursor } from './keyset-cursor.ts';

describe('list cursor', () => {
  it('round-trips a position at microsecond precision', () => {
    const p = { createdAt: '2030-05-01T10:20:30.123456Z', id: '01a1fc97-f1e8-765e-92c4-fdeb302ed871' };
    expect(decodeCursor(encodeCursor(p))).toEqual(p);
  });

  it('round-trips any valid position', () => {
    fc.assert(fc.property(fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }), fc.uuid(), fc.integer({ min: 0, max: 999 }), (d, id, micro) => {
      const createdAt = d.toISOString().replace('Z', `${String(micro).padStart(3, '0')}Z`);
      expect(decodeCursor(encodeCursor({ createdAt, id }))).toEqual({ createdAt, id });
    }));
  });

  it('takes E.164 numbers as keys when told to, and only then', () => {
    const p = { createdAt: '2030-05-01T10:20:30.123456Z', id: '+61412345678' };
    expect(decodeCursor(encodeCursor(p), E164_KEY)).toEqual(p);
    expect(decodeCursor(encodeCursor(p))).toBeNull();
    expect(decodeCursor(encodeCursor({ ...p, id: '01a1fc97-f1e8-765e-92c4-fdeb302ed871' }), E164_KEY)).toBeNull();
  });

  it.each([
    '', 'not a cursor', '!!!!', 'a'.repeat(201),
    Buffer.from('2030-05-01T10:20:30.123Z|01a1fc97-f1e8-765e-92c4-fdeb302ed871').toString('base64url'),
    Buffer.from('2030-05-01T10:20:30.123456Z|nope').toString('base64url'),
    Buffer.from('2030-05-01T10:20:30.123456Z|01a1fc97-f1e8-765e-92c4-fdeb302ed871|x').toString('base64url'),
    Buffer.from('2030-13-41T10:20:30.123456Z|01a1fc97-f1e8-765e-92c4-fdeb302ed871').toString('base64url'),
  ])('refuses %j', (cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });
});
