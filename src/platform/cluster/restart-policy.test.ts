import { describe, expect, it } from 'vitest';
import { afterCrash, CRASH_POLICY, restartTimers } from './restart-policy.ts';

describe('afterCrash', () => {
  it('restarts a first crash after a short pause', () => {
    expect(afterCrash([], 1_000)).toEqual({ restart: true, delayMs: 250, crashes: [1_000] });
  });

  it('waits longer after each crash in the window, up to 5 s', () => {
    let crashes: number[] = [];
    const delays: number[] = [];
    for (let i = 0; i < CRASH_POLICY.limit; i += 1) {
      const verdict = afterCrash(crashes, 10_000 + i);
      if (!verdict.restart) throw new Error('gave up too early');
      delays.push(verdict.delayMs);
      crashes = verdict.crashes;
    }
    expect(delays).toEqual([250, 500, 1_000, 2_000, 4_000]);
    expect(afterCrash([1, 2, 3, 4, 5, 6, 7, 8], 9, { limit: 100, windowMs: 60_000 })).toMatchObject({ delayMs: 5_000 });
  });

  it('gives up on the crash after the limit within the window', () => {
    const crashes = [1_000, 2_000, 3_000, 4_000, 5_000];
    expect(afterCrash(crashes, 6_000)).toEqual({ restart: false, crashes: [...crashes, 6_000] });
  });

  it('forgets crashes older than the window', () => {
    const crashes = [1_000, 2_000, 3_000, 4_000, 5_000];
    const verdict = afterCrash(crashes, 1_000 + CRASH_POLICY.windowMs);
    expect(verdict).toEqual({ restart: true, delayMs: 4_000, crashes: [2_000, 3_000, 4_000, 5_000, 61_000] });
  });
});

describe('restartTimers', () => {
  it('keeps the process alive while a restart waits (the only handle left when every child has exited)', () => {
    const restarts = restartTimers();
    const timer = restarts.after(60_000, () => {});
    expect(timer.hasRef()).toBe(true);
    expect(restarts.pending).toBe(1);
    restarts.clear();
    expect(restarts.pending).toBe(0);
  });

  it('runs each restart once after its pause and forgets it; clear cancels the rest', async () => {
    const restarts = restartTimers();
    const ran: string[] = [];
    const soonRan = new Promise<void>((resolve) => restarts.after(5, () => { ran.push('soon'); resolve(); }));
    restarts.after(60_000, () => ran.push('late'));
    await soonRan;
    expect(ran).toEqual(['soon']);
    expect(restarts.pending).toBe(1);
    restarts.clear();
    expect(restarts.pending).toBe(0);
  });
});
