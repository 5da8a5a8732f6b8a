import { describe, expect, it } from 'vitest';
import { parseSendAt } from './send-at.ts';

const now = new Date('2030-05-01T00:00:00.000Z');

describe('parseSendAt', () => {
  it.each([
    ['2030-05-01T10:00:00+10:00', '2030-05-01T00:00:00.000Z', false], // exactly now: not in the future
    ['2030-05-01T10:00:01+10:00', '2030-05-01T00:00:01.000Z', true],
    ['2030-05-01T00:00:00.001Z', '2030-05-01T00:00:00.001Z', true],
    ['2030-05-02T09:30+12:00', '2030-05-01T21:30:00.000Z', true],
    ['2030-06-05T00:00:00Z', '2030-06-05T00:00:00.000Z', true], // 35 days exactly
  ])('%s is %s (accepted: %s)', (value, iso, ok) => {
    const r = parseSendAt(value, now);
    expect(r.ok).toBe(ok);
    if (r.ok) expect(r.at.toISOString()).toBe(iso);
  });

  it.each([
    ['2030-06-05T00:00:00.001Z', /35 days/],
    ['2030-04-30T23:59:59Z', /past/],
    ['2030-05-02T09:00:00', /offset/],
    ['2030-05-02', /offset/],
    ['tomorrow', /offset/],
    ['2030-02-30T09:00:00Z', /real/],
    ['2030-05-02T24:00:00Z', /real/],
    ['2030-05-02T09:00:00+1000', /offset/],
  ])('refuses %s', (value, reason) => {
    const r = parseSendAt(value, now);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});
