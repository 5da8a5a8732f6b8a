import { describe, expect, it } from 'vitest';
import { createWorkerLoop, type Held } from './worker-loop.ts';
import { pollUntil } from '../../../test/support/poll.ts';

const quiet = { warn: () => {}, error: () => {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An in-memory queue with leases and fencing tokens, as the SQL queues behave. */
function memoryQueue(ids: string[]) {
  const rows = new Map(ids.map((id) => [id, { done: false, leaseUntil: 0, token: null as string | null }]));
  return {
    rows,
    claim(want: number, token: string, leaseMs: number): string[] {
      const now = Date.now();
      const picked = [...rows].filter(([, r]) => !r.done && r.leaseUntil < now).slice(0, want);
      for (const [, r] of picked) { r.leaseUntil = now + leaseMs; r.token = token; }
      return picked.map(([id]) => id);
    },
    renew(held: Array<Held<string>>, leaseMs: number): void {
      for (const h of held) {
        const r = rows.get(h.item)!;
        if (r.token === h.token && !r.done) r.leaseUntil = Date.now() + leaseMs;
      }
    },
    complete(id: string, token: string): boolean {
      const r = rows.get(id)!;
      if (r.token !== token || r.done) return false;
      r.done = true;
      return true;
    },
  };
}

describe('createWorkerLoop', () => {
  it('handles every item once, at most `concurrency` at a time, and stop() drains', async () => {
    const q = memoryQueue(Array.from({ length: 30 }, (_, i) => `m${i}`));
    let open = 0;
    let maxOpen = 0;
    const done: string[] = [];
    const loop = createWorkerLoop<string>({
      name: 'test', concurrency: 4, pollMs: 10, logger: quiet,
      claim: async (want, token, leaseMs) => q.claim(want, token, leaseMs),
      handle: async (id, job) => {
        open++;
        maxOpen = Math.max(maxOpen, open);
        await sleep(5);
        open--;
        if (q.complete(id, job.token)) done.push(id);
      },
    });
    await loop.start();
    await pollUntil(() => done.length, (n) => n >= 30, 'every item handled', 30_000, 5);
    await loop.stop();
    expect(new Set(done).size).toBe(30);
    expect(maxOpen).toBe(4);
  });

  it('renews the lease of a long job, so no one else takes it; a dead worker\'s items are retaken after the lease', async () => {
    const q = memoryQueue(['long']);
    // A lease 20 heartbeats long: the rival may take the item only if the live worker's event loop stalls for most
    // of a second, which a loaded CI machine does not do (a 60 ms lease made this fail under load).
    const leaseMs = 1_000;
    // The live worker: a job far longer than the lease, kept alive by the heartbeat.
    let finish!: () => void;
    const live = createWorkerLoop<string>({
      name: 'live', concurrency: 1, pollMs: 10, leaseMs, renewEveryMs: 50, logger: quiet,
      claim: async (want, token, ms) => q.claim(want, token, ms),
      renew: async (held, ms) => q.renew(held, ms),
      handle: (id, job) => new Promise<void>((resolve) => { finish = () => { q.complete(id, job.token); resolve(); }; }),
    });
    await live.start();
    await pollUntil(() => live.inFlight(), (n) => n === 1, 'the long job taken', 30_000, 5);
    const rival: string[] = [];
    const other = createWorkerLoop<string>({
      name: 'other', concurrency: 1, pollMs: 10, leaseMs, logger: quiet,
      claim: async (want, token, ms) => q.claim(want, token, ms),
      handle: async (id) => { rival.push(id); },
    });
    await other.start();
    // Two leases pass on the clock: the heartbeat keeping the item is what is under test.
    await sleep(leaseMs * 2);
    expect(rival).toEqual([]);
    // Stop with a short grace: the item is abandoned to its lease (the live worker "dies"), and the rival takes it.
    const stopping = live.stop({ graceMs: 10, onGraceExpired: async () => { q.rows.get('long')!.token = 'dead'; finish(); } });
    await stopping;
    await pollUntil(() => rival.length, (n) => n > 0, 'the rival taking the item', 20_000, 5);
    await other.stop();
    expect(rival).toEqual(['long']);
  });

  it('wakes at once on its signal rather than at the next poll', async () => {
    const q = memoryQueue([]);
    let wake!: () => void;
    const signal = { subscribe: async (fn: () => void) => { wake = fn; return async () => {}; } };
    const handled: number[] = [];
    let claims = 0;
    const loop = createWorkerLoop<string>({
      name: 'signal', concurrency: 2, pollMs: 60_000, signal, logger: quiet,
      claim: async (want, token, ms) => { claims++; return q.claim(want, token, ms); },
      handle: async (id, job) => { if (q.complete(id, job.token)) handled.push(Date.now()); },
    });
    await loop.start();
    // Its first claim (of nothing) made, the loop waits for the next poll, a minute away.
    await pollUntil(() => claims, (n) => n >= 1, 'the first claim', 30_000, 5);
    q.rows.set('new', { done: false, leaseUntil: 0, token: null });
    const raisedAt = Date.now();
    wake();
    await pollUntil(() => handled.length, (n) => n > 0, 'the item handled', 5_000, 2);
    await loop.stop();
    expect(handled).toHaveLength(1);
    expect(handled[0]! - raisedAt).toBeLessThan(1_000);
  });
});
