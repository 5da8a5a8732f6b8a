import { describe, expect, it } from 'vitest';
import type { Carrier, SubmitRequest } from '../../carrier/carrier.ts';
import { withCustomerValidity } from './customer-validity.ts';

const now = new Date('2026-03-02T01:00:00Z');

function fakeLink() {
  const submitted: SubmitRequest[] = [];
  const link: Carrier = {
    start: async () => {},
    submit: async (request) => { submitted.push(request); return { ok: true, smscMessageId: request.id }; },
    health: () => ({ connected: true, bound: true, inFlight: 0, lastError: null }),
    stop: async () => {},
  };
  return { link, submitted };
}

const request = (id: string, validUntil?: Date): SubmitRequest => ({ id, from: 'Tasman', to: '+61412345678', text: 'hi', receipt: true, ...(validUntil ? { validUntil } : {}) });

describe('the carrier link with customers\' validity', () => {
  it('passes on a submit with its customer\'s validity or without one, and holds back one whose validity has passed', async () => {
    const { link, submitted } = fakeLink();
    const wrapped = withCustomerValidity(link, { now: () => now });
    const results = await Promise.all([
      wrapped.submit(request('later', new Date(now.getTime() + 60_000))),
      wrapped.submit(request('past', new Date(now.getTime() - 1))),
      wrapped.submit(request('now', now)),
      wrapped.submit(request('plain')),
    ]);
    expect(results.map((r) => (r.ok ? 'ok' : `${r.permanent ? 'permanent' : 'temporary'}:${r.errorCode}`)))
      .toEqual(['ok', 'temporary:validity_expired', 'temporary:validity_expired', 'ok']);
    expect(submitted.map((r) => [r.id, r.validUntil?.toISOString()])).toEqual([['later', '2026-03-02T01:01:00.000Z'], ['plain', undefined]]);
  });
});
