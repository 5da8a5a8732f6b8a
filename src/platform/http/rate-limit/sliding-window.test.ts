import { describe, expect, it } from 'vitest';
import { buildHeaders, decisionHeaders, effectiveNow, expire, judge, resetMs, retryMs } from './sliding-window.ts';

const limits = { rps: 5, concurrency: 2 };

describe('judge', () => {
  it('admits below both limits', () => {
    expect(judge({ count: 4, active: 1, oldest: 0, newest: 0 }, limits)).toBeUndefined();
  });
  it('refuses for rate at the limit, before looking at concurrency', () => {
    expect(judge({ count: 5, active: 2, oldest: 0, newest: 0 }, limits)).toBe('rate');
  });
  it('refuses for concurrency when the rate allows', () => {
    expect(judge({ count: 0, active: 2, oldest: undefined, newest: undefined }, limits)).toBe('concurrency');
  });
});

describe('expire', () => {
  it('drops admissions at or before now - 1 s and keeps the rest', () => {
    const times = [0, 499, 500, 501, 1400];
    expire(times, 1500);
    expect(times).toEqual([501, 1400]);
  });
  it('keeps everything inside the window', () => {
    const times = [1, 2];
    expire(times, 1000);
    expect(times).toEqual([1, 2]);
  });
  it('handles an empty log', () => {
    const times: number[] = [];
    expire(times, 10);
    expect(times).toEqual([]);
  });
});

describe('effectiveNow', () => {
  it('never runs behind the latest admission', () => {
    expect(effectiveNow(100, 200)).toBe(200);
    expect(effectiveNow(300, 200)).toBe(300);
    expect(effectiveNow(100, undefined)).toBe(100);
  });
});

describe('reset and retry', () => {
  it('counts to when the window empties and when the oldest leaves', () => {
    expect(resetMs(undefined, 5)).toBe(0);
    expect(resetMs(900, 1000)).toBe(900);
    expect(resetMs(0, 5000)).toBe(0);
    expect(retryMs(100, 1000)).toBe(100);
    expect(retryMs(undefined, 1000)).toBe(0);
  });
});

describe('buildHeaders', () => {
  it('rounds up to whole seconds and omits Retry-After when admitted', () => {
    expect(buildHeaders({ limit: 50, remaining: 49, resetMs: 1000 })).toEqual({
      'RateLimit-Limit': '50',
      'RateLimit-Remaining': '49',
      'RateLimit-Reset': '1',
    });
    expect(buildHeaders({ limit: 50, remaining: 0, resetMs: 1, retryAfterMs: 1 })['RateLimit-Reset']).toBe('1');
  });
  it('never sends Retry-After below 1 or negative remaining', () => {
    const headers = buildHeaders({ limit: 5, remaining: -3, resetMs: 0, retryAfterMs: 0 });
    expect(headers['Retry-After']).toBe('1');
    expect(headers['RateLimit-Remaining']).toBe('0');
    expect(headers['RateLimit-Reset']).toBe('0');
  });
  it('rounds a long wait up', () => {
    expect(buildHeaders({ limit: 5, remaining: 0, resetMs: 2001, retryAfterMs: 1001 })).toMatchObject({
      'Retry-After': '2',
      'RateLimit-Reset': '3',
    });
  });
});

describe('decisionHeaders', () => {
  it('counts this request when admitted', () => {
    const state = { count: 2, active: 0, oldest: 100, newest: 300 };
    expect(decisionHeaders(state, limits, 400, undefined)).toEqual({
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '2',
      'RateLimit-Reset': '1',
    });
  });
  it('waits for the oldest admission on a rate refusal', () => {
    const state = { count: 5, active: 0, oldest: 100, newest: 300 };
    expect(decisionHeaders(state, limits, 400, 'rate')).toEqual({
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '1',
      'Retry-After': '1',
    });
  });
  it('says one second on a concurrency refusal and keeps the rate allowance', () => {
    const state = { count: 0, active: 2, oldest: undefined, newest: undefined };
    expect(decisionHeaders(state, limits, 400, 'concurrency')).toEqual({
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '5',
      'RateLimit-Reset': '0',
      'Retry-After': '1',
    });
  });
});
