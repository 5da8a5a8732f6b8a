import { describe, expect, it } from 'vitest';
import { createFirstAttempts, type FirstAttemptPort } from './first-attempt.ts';
import type { ClaimedDelivery } from './delivery.repo.ts';

/** A port with `slots` free and a per-endpoint cap, counting what is taken. */
function port(slots: number, cap: number) {
  const open = new Map<string, number>();
  const started: Array<{ ids: string[]; token: string }> = [];
  let free = slots;
  const p: FirstAttemptPort = {
    leaseMs: 15_000,
    take(accountId, event) {
      const key = `${accountId}|${event}`;
      if (free <= 0 || (open.get(key) ?? 0) >= cap) return false;
      open.set(key, (open.get(key) ?? 0) + 1);
      free -= 1;
      return true;
    },
    give(accountId, event) {
      const key = `${accountId}|${event}`;
      open.set(key, open.get(key)! - 1);
      free += 1;
    },
    start(rows, token) { started.push({ ids: rows.map((r) => r.id), token }); },
  };
  return { p, open, started, free: () => free };
}

const row = (id: string, accountId: string): ClaimedDelivery => ({
  id, accountId, event: 'message.dlr', body: '{}', attempts: 0, claim: 't', url: 'https://example.com', enabled: true,
  secretSealed: null, urlCredentialsSealed: null, previousSecretSealed: null,
});

describe('first attempts without a claim', () => {
  it('takes only what the pool and each endpoint cap allow', () => {
    const { p } = port(3, 2);
    const first = createFirstAttempts(p);
    const held = first.reserve(['a', 'a', 'a', 'b', 'b'].map((accountId) => ({ accountId, event: 'message.dlr' as const })));
    expect(held).toEqual([true, true, false, true, false]);
  });

  it('after the commit starts the inserted rows under its token and gives back the slots of rows not inserted', () => {
    const { p, open, started, free } = port(10, 5);
    const first = createFirstAttempts(p);
    first.reserve([{ accountId: 'a', event: 'message.dlr' }, { accountId: 'b', event: 'message.dlr' }]);
    // b has no endpoint: nothing inserted for it
    first.inserted([row('d1', 'a')]);
    first.committed();
    expect(started).toEqual([{ ids: ['d1'], token: first.token }]);
    expect(open.get('a|message.dlr')).toBe(1);
    expect(open.get('b|message.dlr')).toBe(0);
    expect(free()).toBe(9);
  });

  it('a rollback gives every slot back and starts nothing, also when committed is called after', () => {
    const { p, open, started, free } = port(10, 5);
    const first = createFirstAttempts(p);
    first.reserve([{ accountId: 'a', event: 'message.dlr' }, { accountId: 'a', event: 'message.dlr' }]);
    first.inserted([row('d1', 'a'), row('d2', 'a')]);
    first.cancel();
    first.committed();
    expect(started).toEqual([]);
    expect(open.get('a|message.dlr')).toBe(0);
    expect(free()).toBe(10);
  });
});
