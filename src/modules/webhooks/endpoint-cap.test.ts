import { describe, expect, it } from 'vitest';
import { claimOnAnswer } from './claim-scan.ts';
import { busy, createEndpointCaps, type EndpointCaps } from './endpoint-cap.ts';

const fast = (openBefore: number) => ({ delivered: true, durationMs: 5, openBefore });

/**
 * An endpoint with a backlog: every delivery open at the start of a round trip answers in it, and it is refilled to
 * its cap whenever the worker would wake a claim for it (a quarter of its cap free, claim-scan.ts). Returns its cap
 * after each round trip.
 */
function backlogged(caps: EndpointCaps, key: string, roundTrips: number, answer = (_n: number) => ({ delivered: true, durationMs: 5 })): number[] {
  let open = caps.cap(key);
  let n = 0;
  const trace: number[] = [];
  for (let rt = 0; rt < roundTrips; rt++) {
    for (let answering = open; answering > 0; answering--) {
      caps.answered(key, { ...answer(n++), openBefore: open });
      open -= 1;
      const cap = caps.cap(key);
      if (claimOnAnswer({ lastClaimFilled: false, atCapAfterClaim: true, cap, open })) open = cap;
    }
    trace.push(caps.cap(key));
  }
  return trace;
}

describe('endpoint caps', () => {
  it('starts every endpoint at the base', () => {
    const caps = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    expect(caps.cap('a|message.dlr')).toBe(16);
    expect(caps.grown().size).toBe(0);
  });

  it('is busy with at least three quarters of its cap open', () => {
    expect([11, 12, 16].map((open) => busy(open, 16))).toEqual([false, true, true]);
    expect([47, 48, 64].map((open) => busy(open, 64))).toEqual([false, true, true]);
    expect(busy(3, 3)).toBe(true);
    expect(busy(2, 3)).toBe(false);
  });

  it('grows by one per fast answer while busy, up to the maximum', () => {
    const caps = createEndpointCaps({ base: 16, max: 20, fastMs: 250 });
    caps.answered('a', fast(16));
    expect(caps.cap('a')).toBe(17);
    caps.answered('a', fast(13));
    expect(caps.cap('a')).toBe(18);
    for (let i = 0; i < 10; i++) caps.answered('a', fast(caps.cap('a')));
    expect(caps.cap('a')).toBe(20);
    expect(caps.cap('b')).toBe(16);
  });

  it('does not grow an endpoint with more than a quarter of its cap free (the cap is not what limits it)', () => {
    const caps = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    for (let i = 0; i < 100; i++) caps.answered('a', fast(11));
    expect(caps.cap('a')).toBe(16);
    expect(caps.grown().size).toBe(0);
  });

  it('a fast endpoint with a backlog doubles about once per round trip: at the maximum within three', () => {
    const caps = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    const trace = backlogged(caps, 'a', 6);
    expect(trace[0]).toBeGreaterThanOrEqual(28);
    expect(trace.slice(2)).toEqual([64, 64, 64, 64]);
  });

  it('after a slow answer halves it, grows back within two round trips', () => {
    const caps = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    backlogged(caps, 'a', 3);
    caps.answered('a', { delivered: true, durationMs: 400, openBefore: 64 });
    expect(caps.cap('a')).toBe(32);
    expect(backlogged(caps, 'a', 2)[1]).toBe(64);
  });

  it('a backlog with one slow answer in a hundred stays near the maximum; one with errors stays near the base', () => {
    // Growing one slot per refill, such an endpoint averaged about half the maximum.
    const hiccups = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    const trace = backlogged(hiccups, 'a', 40, (n) => ({ delivered: true, durationMs: n % 100 === 99 ? 300 : 5 }));
    expect(trace.reduce((sum, cap) => sum + cap, 0) / trace.length).toBeGreaterThan(56);
    expect(Math.min(...trace.slice(2))).toBeGreaterThanOrEqual(32);

    const failing = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    const errors = backlogged(failing, 'b', 10, (n) => ({ delivered: n % 8 !== 7, durationMs: 5 }));
    expect(Math.max(...errors)).toBeLessThanOrEqual(24);
    expect(failing.cap('b')).toBeLessThan(24);
  });

  it('never grows past the maximum', () => {
    const caps = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    for (let i = 0; i < 1000; i++) caps.answered('a', fast(caps.cap('a')));
    expect(caps.cap('a')).toBe(64);
  });

  it('goes back to the base on an error, a timeout or a non-2xx', () => {
    const caps = createEndpointCaps({ base: 16, max: 64, fastMs: 250 });
    for (let i = 0; i < 10; i++) caps.answered('a', fast(caps.cap('a')));
    expect(caps.cap('a')).toBe(26);
    caps.answered('a', { delivered: false, durationMs: 3, openBefore: 26 });
    expect(caps.cap('a')).toBe(16);
    expect(caps.grown().has('a')).toBe(false);
    backlogged(caps, 'a', 3);
    caps.answered('a', { delivered: false, durationMs: 10_000, openBefore: 64 });
    expect(caps.cap('a')).toBe(16);
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
