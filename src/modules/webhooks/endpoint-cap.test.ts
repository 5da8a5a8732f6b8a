import { describe, expect, it } from 'vitest';
import { createEndpointCaps } from './endpoint-cap.ts';

const fast = (openBefore: number) => ({ delivered: true, durationMs: 5, openBefore });

describe('endpoint caps', () => {
  it('starts every endpoint at the base', () => {
    const caps = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    expect(caps.cap('a|message.dlr')).toBe(16);
    expect(caps.grown().size).toBe(0);
  });

  it('grows by one per fast answer while the endpoint uses its whole cap, up to the maximum', () => {
    const caps = createEndpointCaps({ base: 16, max: 20, fastMs: 250 });
    caps.answered('a', fast(16));
    expect(caps.cap('a')).toBe(17);
    caps.answered('a', fast(17));
    expect(caps.cap('a')).toBe(18);
    for (let i = 0; i < 10; i++) caps.answered('a', fast(caps.cap('a')));
    expect(caps.cap('a')).toBe(20);
    expect(caps.cap('b')).toBe(16);
  });

  it('does not grow an endpoint that has room left (it is not what limits it)', () => {
    const caps = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    caps.answered('a', fast(15));
    expect(caps.cap('a')).toBe(16);
  });

  it('goes back to the base on an error or a non-2xx', () => {
    const caps = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    for (let i = 0; i < 10; i++) caps.answered('a', fast(caps.cap('a')));
    expect(caps.cap('a')).toBe(26);
    caps.answered('a', { delivered: false, durationMs: 3, openBefore: 30 });
    expect(caps.cap('a')).toBe(16);
    expect(caps.grown().has('a')).toBe(false);
  });

  it('halves on a slow answer, never below the base', () => {
    const caps = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    const slow = { delivered: true, durationMs: 250, openBefore: 64 };
    for (let i = 0; i < 48; i++) caps.answered('a', fast(caps.cap('a')));
    expect(caps.cap('a')).toBe(64);
    caps.answered('a', slow);
    expect(caps.cap('a')).toBe(32);
    caps.answered('a', slow);
    expect(caps.cap('a')).toBe(16);
    expect(caps.grown().has('a')).toBe(false);
    caps.answered('a', slow);
    expect(caps.cap('a')).toBe(16);
    // grown to 40: half is 20, still above the base
    for (let i = 0; i < 24; i++) caps.answered('b', fast(caps.cap('b')));
    caps.answered('b', slow);
    expect(caps.cap('b')).toBe(20);
  });
});
