import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { retentionCutoff, uuidv7Floor } from './cutoff.ts';

/** A v7 id for an arbitrary millisecond (the app's generator is monotonic, so it cannot go back in time). */
function v7At(ms: number): string {
  const b = randomBytes(16);
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | (b[6]! & 0x0f);
  b[8] = 0x80 | (b[8]! & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

describe('uuidv7Floor', () => {
  it('encodes the millisecond in the first 48 bits', () => {
    expect(uuidv7Floor(new Date(0))).toBe('00000000-0000-7000-8000-000000000000');
    expect(uuidv7Floor(new Date('2025-06-01T00:00:00.000Z'))).toBe('019728c9-c000-7000-8000-000000000000');
  });

  it('sorts above every id minted earlier and at or below every id minted then or later', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }),
      fc.integer({ min: -5_000, max: 5_000 }),
      (floorMs, offset) => {
        const id = v7At(floorMs + offset);
        const floor = uuidv7Floor(new Date(floorMs));
        // uuid columns compare as unsigned bytes, which for lower-case hex is string order
        return offset < 0 ? id < floor : id >= floor;
      },
    ));
  });

  it('refuses an invalid date', () => {
    expect(() => uuidv7Floor(new Date('nope'))).toThrow(RangeError);
  });
});

describe('retentionCutoff', () => {
  it('is exactly the retention period before now', () => {
    expect(retentionCutoff(new Date('2025-06-01T00:00:00.000Z'), 90).toISOString()).toBe('2025-03-03T00:00:00.000Z');
  });
});
