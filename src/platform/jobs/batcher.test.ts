import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBatcher } from './batcher.ts';

function deferred() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => { release = resolve; });
  return { promise, release };
}

describe('createBatcher', () => {
  it('runs a lone item at once, alone', async () => {
    const batches: number[][] = [];
    const b = createBatcher<number, number>({ maxSize: 10, maxConcurrent: 1, run: async (items) => { batches.push(items); return items.map((i) => i * 2); } });
    expect(await b.submit(21)).toBe(42);
    expect(batches).toEqual([[21]]);
    expect(b.load).toBe(0);
  });

  it('groups items that arrive while a batch is in flight, in order, up to maxSize', async () => {
    const gate = deferred();
    const batches: number[][] = [];
    const b = createBatcher<number, number>({
      maxSize: 3, maxConcurrent: 1,
      run: async (items) => { batches.push(items); if (batches.length === 1) await gate.promise; return items; },
    });
    const all = [1, 2, 3, 4, 5, 6].map((i) => b.submit(i));
    expect(b.load).toBe(6);
    gate.release();
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('submitAll queues its items together: they share one batch even when a slot is free', async () => {
    const batches: number[][] = [];
    const b = createBatcher<number, number>({ maxSize: 10, maxConcurrent: 2, run: async (items) => { batches.push(items); return items; } });
    expect(await Promise.all(b.submitAll([1, 2, 3]))).toEqual([1, 2, 3]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('never puts two items with one key in a batch, and keeps their order', async () => {
    const gate = deferred();
    const batches: string[][] = [];
    const b = createBatcher<string, string>({
      maxSize: 10, maxConcurrent: 1, key: (s) => s[0]!,
      run: async (items) => { batches.push(items); if (batches.length === 1) await gate.promise; return items; },
    });
    const all = ['x0', 'a1', 'a2', 'b1', 'a3', 'b2'].map((s) => b.submit(s));
    gate.release();
    await Promise.all(all);
    expect(batches).toEqual([['x0'], ['a1', 'b1'], ['a2', 'b2'], ['a3']]);
  });

  it('runs up to maxConcurrent batches at once', async () => {
    let running = 0;
    let peak = 0;
    const b = createBatcher<number, number>({
      maxSize: 1, maxConcurrent: 3,
      run: async (items) => { running += 1; peak = Math.max(peak, running); await new Promise((r) => setTimeout(r, 5)); running -= 1; return items; },
    });
    await Promise.all(Array.from({ length: 10 }, (_, i) => b.submit(i)));
    expect(peak).toBe(3);
  });

  it('rejects only the items answered with an Error, and every item of a failed batch', async () => {
    const b = createBatcher<number, number>({
      maxSize: 10, maxConcurrent: 1,
      run: async (items) => {
        if (items.includes(99)) throw new Error('boom');
        return items.map((i) => (i % 2 ? new Error(`odd ${i}`) : i));
      },
    });
    await expect(b.submit(2)).resolves.toBe(2);
    await expect(b.submit(3)).rejects.toThrow('odd 3');
    await expect(b.submit(99)).rejects.toThrow('boom');
    expect(b.load).toBe(0);
  });

  it('runs a failed batch again, whole and alone, for as long as retry gives a delay', async () => {
    const batches: number[][] = [];
    const seen: Array<[string, number]> = [];
    let failures = 2;
    const gate = deferred();
    const b = createBatcher<number, number>({
      maxSize: 10, maxConcurrent: 1,
      retry: (err, attempt) => { seen.push([(err as Error).message, attempt]); return 0; },
      run: async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate.promise;
        if (failures > 0) { failures -= 1; throw new Error(`down ${failures}`); }
        return items;
      },
    });
    const first = b.submit(1);
    // Arrives while the first batch is in flight: waits behind it and its retries, never joins them.
    const second = b.submit(2);
    gate.release();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(batches).toEqual([[1], [1], [1], [2]]);
    expect(seen).toEqual([['down 1', 0], ['down 0', 1]]);
    expect(b.load).toBe(0);
  });

  it('rejects every item with the last error once retry gives up, and idle() waits for the retries', async () => {
    let runs = 0;
    const b = createBatcher<number, number>({
      maxSize: 10, maxConcurrent: 1,
      retry: (_err, attempt) => (attempt < 3 ? 0 : null),
      run: async () => { runs += 1; throw new Error(`run ${runs}`); },
    });
    const outcome = b.submit(7).then(() => 'resolved', (err: Error) => err.message);
    await b.idle();
    expect(runs).toBe(4);
    expect(await outcome).toBe('run 4');
  });

  it('gives up when the retry policy itself throws', async () => {
    const b = createBatcher<number, number>({
      maxSize: 10, maxConcurrent: 1,
      retry: () => { throw new Error('policy'); },
      run: async () => { throw new Error('write'); },
    });
    await expect(b.submit(1)).rejects.toThrow('write');
    expect(b.load).toBe(0);
  });
});

describe('createBatcher with openAfterMs', () => {
  afterEach(() => { vi.useRealTimers(); });

  /** A batcher whose batches each wait for their own gate; `batches` records what each batch held. */
  function gated(maxConcurrent: number, openAfterMs: number) {
    const gates: Array<() => void> = [];
    const batches: number[][] = [];
    const b = createBatcher<number, number>({
      maxSize: 10, maxConcurrent, openAfterMs,
      run: async (items) => {
        batches.push(items);
        await new Promise<void>((resolve) => { gates.push(resolve); });
        return items;
      },
    });
    return { b, batches, release: (i: number) => gates[i]!() };
  }

  it('keeps one batch in flight while it is quick: what arrives meanwhile goes in one next batch', async () => {
    vi.useFakeTimers();
    const { b, batches, release } = gated(2, 20);
    const all = [b.submit(1)];
    await vi.advanceTimersByTimeAsync(5);
    all.push(b.submit(2), b.submit(3));
    await vi.advanceTimersByTimeAsync(10);
    expect(batches).toEqual([[1]]);
    release(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([[1], [2, 3]]);
    release(1);
    expect(await Promise.all(all)).toEqual([1, 2, 3]);
  });

  it('opens a second batch beside one that has run openAfterMs, without waiting for it', async () => {
    vi.useFakeTimers();
    const { b, batches, release } = gated(2, 20);
    const slow = b.submit(1);
    await vi.advanceTimersByTimeAsync(5);
    const behind = [b.submit(2), b.submit(3)];
    await vi.advanceTimersByTimeAsync(14);
    expect(batches).toEqual([[1]]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([[1], [2, 3]]);
    release(1);
    expect(await Promise.all(behind)).toEqual([2, 3]);
    // The slow one still runs, so the next item opens a batch at once beside it.
    const next = b.submit(4);
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([[1], [2, 3], [4]]);
    release(2);
    release(0);
    expect(await Promise.all([slow, next])).toEqual([1, 4]);
    expect(b.load).toBe(0);
  });

  /** Three slots, openAfterMs 20: a batch [1] that has run 20 ms, and item 2 just submitted beside it. */
  async function oldBatchAndSecond() {
    vi.useFakeTimers();
    const g = gated(3, 20);
    const all = [g.b.submit(1)];
    await vi.advanceTimersByTimeAsync(20);
    all.push(g.b.submit(2));
    return { ...g, all };
  }

  it('opens a further batch only once every batch in flight has run openAfterMs', async () => {
    const { b, batches, release, all } = await oldBatchAndSecond();
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([[1], [2]]);
    all.push(b.submit(3));
    await vi.advanceTimersByTimeAsync(19);
    expect(batches).toEqual([[1], [2]]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([[1], [2], [3]]);
    // Never more than maxConcurrent, however long they run.
    all.push(b.submit(4));
    await vi.advanceTimersByTimeAsync(100);
    expect(batches).toEqual([[1], [2], [3]]);
    for (let i = 0; i < 4; i += 1) { release(i); await vi.advanceTimersByTimeAsync(0); }
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4]);
    expect(b.load).toBe(0);
  });

  it('opens the next slot as soon as the younger batch in flight ends, if the older has run long enough', async () => {
    const { b, batches, release, all } = await oldBatchAndSecond();
    await vi.advanceTimersByTimeAsync(5);
    all.push(b.submit(3));
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([[1], [2]]);
    // The young batch ends: only the old one is in flight, so [3] need not wait for the young one's 20 ms.
    release(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([[1], [2], [3]]);
    release(2);
    release(0);
    expect(await Promise.all(all)).toEqual([1, 2, 3]);
  });

  it('still runs a lone item at once when nothing is in flight', async () => {
    vi.useFakeTimers();
    const { b, batches, release } = gated(2, 1000);
    const one = b.submit(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([[1]]);
    release(0);
    expect(await one).toBe(1);
  });
});
