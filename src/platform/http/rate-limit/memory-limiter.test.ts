import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MemoryLimiter } from './memory-limiter.ts';
import { createMemoryLimiter } from './memory-limiter.ts';
import { busiestSpan, firstMismatch, readings, replay } from '../../../../test/support/rate-limit-replay.ts';

const open: MemoryLimiter[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

function limiter(rps: number, concurrency: number, clock: { now: number }): MemoryLimiter {
  const l = createMemoryLimiter({ rps, concurrency, now: () => clock.now, sweepIntervalMs: 0 });
  open.push(l);
  return l;
}

describe('memory limiter: rate', () => {
  it('admits a burst of rps, refuses the next, and admits again once the first leaves the window', async () => {
    const clock = { now: 10_000 };
    const l = limiter(3, 100, clock);
    const first = await l.acquire('k');
    expect(first.headers).toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '2', 'RateLimit-Reset': '1' });
    clock.now += 300;
    await l.acquire('k');
    await l.acquire('k');
    const refused = await l.acquire('k');
    expect(refused).toMatchObject({ allowed: false, reason: 'rate' });
    expect(refused.headers).toEqual({
      'RateLimit-Limit': '3',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '1',
      'Retry-After': '1',
    });
    clock.now = 10_999;
    expect((await l.acquire('k')).allowed).toBe(false);
    clock.now = 11_000;
    const again = await l.acquire('k');
    expect(again.allowed).toBe(true);
    expect(again.headers['RateLimit-Remaining']).toBe('0');
  });

  it('keeps keys apart', async () => {
    const clock = { now: 0 };
    const l = limiter(1, 10, clock);
    expect((await l.acquire('a')).allowed).toBe(true);
    expect((await l.acquire('a')).allowed).toBe(false);
    expect((await l.acquire('b')).allowed).toBe(true);
  });

  it('does not reopen the window when the clock steps backwards', async () => {
    const clock = { now: 5_000 };
    const l = limiter(2, 10, clock);
    await l.acquire('k');
    await l.acquire('k');
    clock.now = 3_000;
    expect((await l.acquire('k')).reason).toBe('rate');
    clock.now = 5_999;
    expect((await l.acquire('k')).reason).toBe('rate');
    clock.now = 6_000;
    expect((await l.acquire('k')).allowed).toBe(true);
  });
});

describe('memory limiter: concurrency', () => {
  it('refuses beyond the slots with Retry-After 1 and without spending the rate', async () => {
    const clock = { now: 0 };
    const l = limiter(10, 2, clock);
    const a = await l.acquire('k');
    await l.acquire('k');
    const refused = await l.acquire('k');
    expect(refused).toMatchObject({ allowed: false, reason: 'concurrency' });
    expect(refused.headers['Retry-After']).toBe('1');
    expect(refused.headers['RateLimit-Remaining']).toBe('8');
    a.release();
    const c = await l.acquire('k');
    expect(c.allowed).toBe(true);
    expect(c.headers['RateLimit-Remaining']).toBe('7');
  });

  it('frees a slot once however often release is called', async () => {
    const clock = { now: 0 };
    const l = limiter(100, 2, clock);
    const a = await l.acquire('k');
    await l.acquire('k');
    a.release();
    a.release();
    expect((await l.acquire('k')).allowed).toBe(true);
    expect((await l.acquire('k')).reason).toBe('concurrency');
  });

  it('treats release of a refused request as a no-op', async () => {
    const clock = { now: 0 };
    const l = limiter(100, 1, clock);
    await l.acquire('k');
    const refused = await l.acquire('k');
    refused.release();
    expect((await l.acquire('k')).reason).toBe('concurrency');
  });

  it('holds at most `concurrency` slots under any order of acquires and releases', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.array(fc.boolean(), { maxLength: 100 }), async (n, ops) => {
        const l = createMemoryLimiter({ rps: 1_000_000, concurrency: n, now: () => 0, sweepIntervalMs: 0 });
        const held: (() => void)[] = [];
        for (const acquire of ops) {
          if (acquire) {
            const d = await l.acquire('k');
            expect(d.allowed).toBe(held.length < n);
            if (d.allowed) held.push(d.release);
          } else {
            const release = held.shift();
            release?.();
            release?.();
          }
        }
        await l.close();
      }),
    );
  });
});

describe('memory limiter: every one-second span', () => {
  // The proof is in README.md; these check it on arbitrary request times, with the limiter compared against the
  // rule itself so that a limiter refusing too much fails as surely as one admitting too much.
  for (const integer of [true, false]) {
    it(`admits at most rps in any [t, t + 1 s), and exactly as many as the rule allows (${integer ? 'integer' : 'fractional'} ms)`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 12 }), readings({ integer, maxLength: 150 }), async (rps, times) => {
          const clock = { now: 0 };
          const l = createMemoryLimiter({ rps, concurrency: 1, now: () => clock.now, sweepIntervalMs: 0 });
          const results = await replay(l, 'k', clock, times);
          await l.close();
          expect(busiestSpan(results.filter((r) => r.allowed).map((r) => r.at))).toBeLessThanOrEqual(rps);
          expect(firstMismatch(results, rps)).toBe(-1);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('keeps the bound in clock time even when the clock jumps backwards', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { maxLength: 120 }),
        async (rps, times) => {
          const clock = { now: 0 };
          const l = createMemoryLimiter({ rps, concurrency: 1, now: () => clock.now, sweepIntervalMs: 0 });
          const results = await replay(l, 'k', clock, times);
          await l.close();
          expect(busiestSpan(results.filter((r) => r.allowed).map((r) => r.at))).toBeLessThanOrEqual(rps);
          expect(firstMismatch(results, rps)).toBe(-1);
        },
      ),
    );
  });
});

describe('memory limiter: idle keys', () => {
  it('drops a key once its slots are released and its admissions have left the window', async () => {
    const clock = { now: 0 };
    const l = limiter(5, 5, clock);
    const held = await l.acquire('busy');
    (await l.acquire('idle')).release();
    expect(l.size()).toBe(2);
    clock.now = 999;
    l.sweep();
    expect(l.size()).toBe(2);
    clock.now = 1_000;
    l.sweep();
    expect(l.size()).toBe(1);
    held.release();
    l.sweep();
    expect(l.size()).toBe(0);
  });

  it('does not keep a thousand one-off keys', async () => {
    const clock = { now: 0 };
    const l = limiter(5, 5, clock);
    for (let i = 0; i < 1_000; i++) (await l.acquire(`key-${i}`)).release();
    clock.now = 2_000;
    l.sweep();
    expect(l.size()).toBe(0);
  });

  it('sweeps on its own timer', async () => {
    vi.useFakeTimers();
    try {
      const clock = { now: 0 };
      const l = createMemoryLimiter({ rps: 5, concurrency: 5, now: () => clock.now });
      open.push(l);
      (await l.acquire('k')).release();
      clock.now = 5_000;
      vi.advanceTimersByTime(10_000);
      expect(l.size()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
