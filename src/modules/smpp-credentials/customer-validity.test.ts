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

const request = (id: string): SubmitRequest => ({ id, from: 'Tasman', to: '+61412345678', text: 'hi', receipt: true });

describe('the carrier link with customers\' validity', () => {
  it('gives each submit its customer\'s validity, looked up together, and holds back one whose validity has passed', async () => {
    const { link, submitted } = fakeLink();
    const lookups: string[][] = [];
    const validity = new Map([['later', new Date(now.getTime() + 60_000)], ['past', new Date(now.getTime() - 1)], ['now', now]]);
    const wrapped = withCustomerValidity(link, {
      now: () => now,
      validityOf: async (ids) => { lookups.push(ids); return new Map(ids.flatMap((id) => (validity.has(id) ? [[id, validity.get(id)!] as const] : []))); },
    });
    const results = await Promise.all(['later', 'past', 'now', 'plain'].map((id) => wrapped.submit(request(id))));
    expect(results.map((r) => (r.ok ? 'ok' : `${r.permanent ? 'permanent' : 'temporary'}:${r.errorCode}`)))
      .toEqual(['ok', 'temporary:validity_expired', 'temporary:validity_expired', 'ok']);
    expect(submitted.map((r) => [r.id, r.validUntil?.toISOString()])).toEqual([['later', '2026-03-02T01:01:00.000Z'], ['plain', undefined]]);
    // The first lookup goes at once, alone; those that came while it ran go together in the next.
    expect(lookups).toEqual([['later'], ['past', 'now', 'plain']]);
  });
});
