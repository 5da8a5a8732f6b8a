import { describe, expect, it } from 'vitest';
import { createRefusalCap } from './refusal-cap.ts';

describe('refusal cap', () => {
  it('records up to the cap per actor per minute, marks the first one over, drops the rest, and starts again next minute', () => {
    let at = Date.parse('2026-01-01T00:00:10Z');
    const cap = createRefusalCap({ perMinute: 3, now: () => new Date(at) });
    expect(['a', 'a', 'a', 'a', 'a'].map((x) => cap.take(x))).toEqual(['record', 'record', 'record', 'capped', 'drop']);
    expect(cap.take('b')).toBe('record');
    at += 50_000; // 00:01:00: a new minute
    expect(cap.take('a')).toBe('record');
  });
});
