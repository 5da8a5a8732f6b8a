import { describe, expect, it } from 'vitest';
import { failureReason, type FailureFacts } from './failure-reason.ts';

const row = (over: Partial<FailureFacts>): FailureFacts => ({ status: 'failed', errorCode: null, dlrStatus: null, dlrErrorCode: null, ...over });

describe('failureReason', () => {
  it.each(['queued', 'scheduled', 'sent', 'delivered'])('has none for a %s message', (status) => {
    expect(failureReason(row({ status, errorCode: 'ESME_RTHROTTLED' }))).toBeNull();
  });

  it('names the SMPP status of a refusal at submit', () => {
    expect(failureReason(row({ errorCode: 'ESME_RINVDSTADR' }))).toEqual({
      code: 'ESME_RINVDSTADR', message: 'The carrier refused the message: the destination number is not valid.',
    });
  });

  it('keeps vendor-specific and unlisted statuses as given', () => {
    expect(failureReason(row({ errorCode: '0x00000400' }))).toEqual({ code: '0x00000400', message: 'The carrier refused the message (0x00000400).' });
    expect(failureReason(row({ errorCode: 'ESME_RINVEXPIRY' }))?.code).toBe('ESME_RINVEXPIRY');
  });

  it.each([
    ['undelivered', '005', 'undelivered', 'The carrier could not deliver the message to the handset (error 005).'],
    ['expired', null, 'expired', 'The carrier gave up delivering the message before the handset could receive it.'],
    ['rejected', '011', 'rejected', 'The carrier rejected the message (error 011).'],
    ['deleted', null, 'deleted', 'The carrier deleted the message before delivery.'],
    ['unknown', null, 'delivery_unknown', 'The carrier reported that the outcome is unknown.'],
  ])('a %s receipt (err %s) is %s', (dlrStatus, err, code, message) => {
    expect(failureReason(row({ dlrStatus, dlrErrorCode: err }))).toEqual({ code, message });
  });

  it('names the submit refusal, not the synthetic rejected receipt that accompanies it', () => {
    expect(failureReason(row({ errorCode: 'ESME_RINVDSTADR', dlrStatus: 'rejected', dlrErrorCode: 'ESME_RINVDSTADR' }))?.code).toBe('ESME_RINVDSTADR');
  });

  it.each(['content_deleted', 'carrier_error', 'response_timeout', 'expired'])('explains its own code %s', (code) => {
    const r = failureReason(row({ errorCode: code }))!;
    expect(r.code).toBe(code);
    expect(r.message).toMatch(/^[A-Z].*\.$/);
    expect(r.message).not.toContain('could not be sent (');
  });

  it('explains cancellations, by the customer or by an opt-out', () => {
    expect(failureReason(row({ status: 'cancelled' }))?.code).toBe('cancelled');
    expect(failureReason(row({ status: 'cancelled', errorCode: 'opted_out' }))).toEqual({
      code: 'opted_out', message: 'The recipient opted out before the message was sent, so it was cancelled.',
    });
  });

  it('always gives one sentence for a failed message, whatever the code', () => {
    for (const code of [null, 'weird', 'ESME_RX_P_APPN']) {
      const r = failureReason(row({ errorCode: code }))!;
      expect(r.message.trim().split(/(?<=\.)\s/).length).toBe(1);
    }
  });
});
