import { afterEach, describe, expect, it, vi } from 'vitest';
import { renewEvery, startHeartbeat } from './heartbeat.ts';

describe('startHeartbeat', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('beats every interval, never two at once, reports a failed beat and goes on, and stops', async () => {
    vi.useFakeTimers();
    let beats = 0;
    let finish: (() => void) | null = null;
    const errors: string[] = [];
    const stop = startHeartbeat({
      everyMs: 100,
      beat: () => {
        beats += 1;
        if (beats === 1) return new Promise<void>((resolve) => { finish = resolve; });
        return Promise.reject(new Error(`beat ${beats}`));
      },
      onError: (err) => errors.push(err.message),
    });
    await vi.advanceTimersByTimeAsync(350);
    // The first beat is still running: the ticks at 200 and 300 ms skip.
    expect(beats).toBe(1);
    finish!();
    await vi.advanceTimersByTimeAsync(100);
    expect(beats).toBe(2);
    expect(errors).toEqual(['beat 2']);
    stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(beats).toBe(2);
  });

  it('renews a lease every third of it', () => {
    expect(renewEvery(15_000)).toBe(5_000);
    expect(renewEvery(1)).toBe(1);
  });
});
