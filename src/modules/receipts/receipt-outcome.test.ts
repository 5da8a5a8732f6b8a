import { describe, expect, it } from 'vitest';
import { combinedState, finalOutcome, receiptErrorCode, statusFor } from './receipt-outcome.ts';

describe('receipt outcome', () => {
  it('treats only ENROUTE as not final; ACCEPTD ends a message as unknown', () => {
    expect(finalOutcome('enroute', '000')).toBeNull();
    expect(finalOutcome('accepted', '000')).toEqual({ state: 'unknown', errorCode: 'ACCEPTD' });
    expect(finalOutcome('accepted', '042')).toEqual({ state: 'unknown', errorCode: '042' });
    for (const s of ['delivered', 'undelivered', 'expired', 'rejected', 'deleted', 'unknown'] as const) {
      expect(finalOutcome(s, '001')).toEqual({ state: s, errorCode: '001' });
    }
  });

  it('maps only delivered to delivered', () => {
    expect(statusFor('delivered')).toBe('delivered');
    for (const s of ['undelivered', 'expired', 'rejected', 'deleted', 'unknown'] as const) expect(statusFor(s)).toBe('failed');
  });

  it.each([
    [null, null], ['', null], ['000', null], ['0', null], [' 001 ', '001'], ['0A1', '0A1'],
  ])('error code %j → %j', (raw, expected) => {
    expect(receiptErrorCode(raw)).toBe(expected);
  });

  it('combines segment receipts: any failure decides, delivered needs every segment', () => {
    expect(combinedState([null, null, null])).toBeNull();
    expect(combinedState(['delivered', null, 'delivered'])).toBeNull();
    expect(combinedState(['delivered', 'delivered'])).toBe('delivered');
    expect(combinedState(['delivered', null, 'expired'])).toBe('expired');
    expect(combinedState(['undelivered', 'expired'])).toBe('undelivered');
    expect(combinedState([])).toBeNull();
  });
});
