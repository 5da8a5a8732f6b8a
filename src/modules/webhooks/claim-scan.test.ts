import { describe, expect, it } from 'vitest';
import { claimOnAnswer, scanFor } from './claim-scan.ts';

describe('scanFor: how many due rows a webhook claim reads', () => {
  it('one busy endpoint: four times its room and a new endpoint\'s cap, not four times the free slots', () => {
    // 192 free slots, the one endpoint in flight may take 19 more: 4 × (19 + 16), where it read 4 × 192 = 768.
    expect(scanFor(192, { 'a|message.dlr': 19 }, 16)).toBe(140);
  });

  it('many endpoints in flight: bounded by four times the free slots', () => {
    const room = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`a${i}|message.dlr`, 10]));
    expect(scanFor(200, room, 16)).toBe(800);
  });

  it('never below 100, whether nothing is known or the pool is nearly full', () => {
    expect(scanFor(256, {}, 16)).toBe(100);
    expect(scanFor(3, { 'a|message.dlr': 0 }, 16)).toBe(100);
  });

  it('counts grown endpoints\' room like any other', () => {
    expect(scanFor(256, { 'a|message.dlr': 64, 'b|message.dlr': 16 }, 16)).toBe(4 * (64 + 16 + 16));
  });
});

describe('claimOnAnswer: whether a freed slot wakes a webhook claim', () => {
  const busy = { lastClaimFilled: false, atCapAfterClaim: true };

  it('an endpoint left at its cap: only once a quarter of its cap is free', () => {
    expect(claimOnAnswer({ ...busy, cap: 64, open: 63 })).toBe(false);
    expect(claimOnAnswer({ ...busy, cap: 64, open: 49 })).toBe(false);
    expect(claimOnAnswer({ ...busy, cap: 64, open: 48 })).toBe(true);
    expect(claimOnAnswer({ ...busy, cap: 16, open: 13 })).toBe(false);
    expect(claimOnAnswer({ ...busy, cap: 16, open: 12 })).toBe(true);
  });

  it('a cap under four: every freed slot', () => {
    expect(claimOnAnswer({ ...busy, cap: 3, open: 2 })).toBe(true);
    expect(claimOnAnswer({ ...busy, cap: 1, open: 0 })).toBe(true);
  });

  it('an endpoint whose rows were not skipped, or a claim that filled: every freed slot', () => {
    expect(claimOnAnswer({ lastClaimFilled: false, atCapAfterClaim: false, cap: 64, open: 63 })).toBe(true);
    expect(claimOnAnswer({ lastClaimFilled: true, atCapAfterClaim: true, cap: 64, open: 63 })).toBe(true);
  });
});
