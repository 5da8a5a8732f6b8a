import { describe, expect, it } from 'vitest';
import { once } from './once.ts';

describe('once', () => {
  it('calls fn on first use only and returns its result every time', () => {
    let calls = 0;
    const get = once(() => ({ n: ++calls }));
    expect(calls).toBe(0);
    const first = get();
    expect(get()).toBe(first);
    expect(calls).toBe(1);
  });

  it('shares one pending load between concurrent first uses', async () => {
    let loads = 0;
    const load = once(async () => { loads += 1; return 'module'; });
    expect(await Promise.all([load(), load(), load()])).toEqual(['module', 'module', 'module']);
    expect(loads).toBe(1);
  });

  it('tries again after fn throws (nothing was kept)', () => {
    let calls = 0;
    const get = once(() => { calls += 1; if (calls === 1) throw new Error('first'); return calls; });
    expect(() => get()).toThrow('first');
    expect(get()).toBe(2);
  });
});
