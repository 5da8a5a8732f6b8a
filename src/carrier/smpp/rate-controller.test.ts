import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRateController } from './rate-controller.ts';

/**
 * A bind sending as fast as its controller allows (a full queue) to an SMSC that takes `limit(second)` submit_sm
 * per calendar second and throttles the rest, on a fixed clock in 5 ms ticks. Answers are instant. Returns the
 * accepted submits per second, and the highest rate the controller ever allowed.
 */
function simulate(ceiling: number, limit: (second: number) => number, seconds: number) {
  let t = 0;
  const pace = createRateController({ ceiling, now: () => t });
  const accepted = new Array<number>(seconds).fill(0);
  let tokens = 1;
  let highest = 0;
  for (; t < seconds * 1000; t += 5) {
    const rate = pace.rate();
    highest = Math.max(highest, rate);
    // Unpaced, the bind sends what one tick of its line can carry: 20 (4,000/s).
    tokens = Number.isFinite(rate) ? Math.min(Math.max(1, Math.ceil(rate / 100)), tokens + rate * 0.005) : 20;
    const second = Math.floor(t / 1000);
    while (tokens >= 1) {
      tokens -= 1;
      pace.sent();
      if (accepted[second]! < limit(second)) { accepted[second]! += 1; pace.accepted(); } else pace.throttled();
    }
  }
  return { accepted, highest, pace };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('rate controller', () => {
  it('is throttled now while the SMSC holds it below the configured TPS, and for 10 s after a throttling answer', () => {
    let t = 0;
    const held = createRateController({ ceiling: 10, now: () => t });
    expect(held.throttledNow()).toBe(false);
    held.throttled();
    // Held at 9 (nothing accepted: 10 × 0.9), however long it stays idle.
    t = 60_000;
    expect([held.rate(), held.throttledNow()]).toEqual([9, true]);

    t = 0;
    const pace = createRateController({ ceiling: 10, now: () => t });
    pace.throttled();
    // Back at its own TPS after a second using its rate: throttled now only until 10 s after the throttle.
    t = 500;
    pace.sent(9);
    t = 1_000;
    expect(pace.rate()).toBe(10);
    expect(pace.throttledNow()).toBe(true);
    t = 9_999;
    expect(pace.throttledNow()).toBe(true);
    t = 10_000;
    expect(pace.throttledNow()).toBe(false);
    expect(pace.throttles()).toBe(1);
  });

  it('an unpaced bind is throttled now from its first throttling answer on', () => {
    let t = 0;
    const pace = createRateController({ ceiling: 0, now: () => t });
    expect(pace.throttledNow()).toBe(false);
    pace.throttled();
    t = 600_000;
    expect(pace.throttledNow()).toBe(true);
  });

  it('settles at a 20/s limit with SMPP_TPS=100 (≥ 90% after 10 s, over the next 60 s), then climbs to a lifted 40/s within 30 s', () => {
    const { accepted, pace } = simulate(100, (s) => (s < 70 ? 20 : 40), 100);
    expect(mean(accepted.slice(10, 70))).toBeGreaterThanOrEqual(18);
    expect(Math.min(...accepted.slice(10, 70))).toBeGreaterThanOrEqual(15);
    // Within 30 s of the lift: the last five of those seconds run at ≥ 90% of 40/s.
    expect(mean(accepted.slice(95, 100))).toBeGreaterThanOrEqual(36);
    expect(pace.settled()).not.toBeNull();
    expect(pace.throttles()).toBeGreaterThan(0);
  });

  it('never exceeds the configured TPS, and keeps it when the SMSC never throttles', () => {
    const { accepted, highest, pace } = simulate(50, () => 1_000, 20);
    expect(highest).toBe(50);
    expect(Math.max(...accepted)).toBeLessThanOrEqual(51);
    expect(pace.settled()).toBeNull();
    expect(pace.throttles()).toBe(0);
  });

  it('with no configured TPS runs unpaced until throttled, then learns the limit', () => {
    const { accepted } = simulate(0, () => 30, 40);
    expect(mean(accepted.slice(10))).toBeGreaterThanOrEqual(27);
  });

  it('never goes above the ceiling or below the floor, whatever the SMSC answers', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 500 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 3_000 }), fc.constantFrom('sent', 'accepted', 'throttled')), { maxLength: 300 }), (ceiling, events) => {
      let t = 0;
      const pace = createRateController({ ceiling, now: () => t });
      for (const [dt, what] of events) {
        t += dt;
        pace[what as 'sent' | 'accepted' | 'throttled']();
        expect(pace.rate()).toBeLessThanOrEqual(ceiling);
        expect(pace.rate()).toBeGreaterThanOrEqual(Math.min(1, ceiling));
      }
    }));
  });

  it('takes throttles within the hold after a decrease as late answers: one decrease for a burst of them', () => {
    let t = 0;
    const pace = createRateController({ ceiling: 100, now: () => t });
    for (let i = 0; i < 20; i++) pace.accepted();
    t = 500;
    expect(pace.throttled()).toBe(true);
    expect(pace.rate()).toBe(18);
    for (let i = 0; i < 50; i++) expect(pace.throttled()).toBe(false);
    expect(pace.rate()).toBe(18);
    expect(pace.throttles()).toBe(51);
  });

  it('does not climb without the demand to use its rate', () => {
    let t = 0;
    const pace = createRateController({ ceiling: 100, now: () => t });
    for (let i = 0; i < 10; i++) pace.accepted();
    pace.throttled();
    const settled = pace.rate();
    for (let s = 0; s < 30; s++) { t += 1_000; pace.sent(); }
    expect(pace.rate()).toBe(settled);
  });
});
