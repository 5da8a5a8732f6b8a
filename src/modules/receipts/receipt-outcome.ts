import type { ReceiptState } from '../../carrier/carrier.ts';

/** The delivery_receipt.status values the contract allows; ENROUTE never reaches a message. */
export type FinalState = 'delivered' | 'undelivered' | 'expired' | 'rejected' | 'deleted' | 'unknown';

const FINAL: ReadonlySet<ReceiptState> = new Set(['delivered', 'undelivered', 'expired', 'rejected', 'deleted', 'unknown']);

/**
 * What a receipt ends a message with, or null when it does not end it (ENROUTE). ACCEPTD is final in SMPP 3.4
 * (read on the subscriber's behalf by customer care, so not delivered to the handset): `unknown`, with
 * error_code `ACCEPTD` unless the SMSC gave one (docs/decisions/0013-every-message-ends-with-a-final-receipt.md).
 */
export function finalOutcome(state: ReceiptState, rawError: string | null): { state: FinalState; errorCode: string | null } | null {
  if (state === 'accepted') return { state: 'unknown', errorCode: receiptErrorCode(rawError) ?? 'ACCEPTD' };
  if (!FINAL.has(state)) return null;
  return { state: state as FinalState, errorCode: receiptErrorCode(rawError) };
}

/** A message's status after a final receipt: only DELIVRD counts as delivered, every other final state failed. */
export function statusFor(state: FinalState): 'delivered' | 'failed' {
  return state === 'delivered' ? 'delivered' : 'failed';
}

/** The SMSC's `err:` value, or null when it says "no error" (000, 0) or says nothing. */
export function receiptErrorCode(raw: string | null): string | null {
  if (raw === null) return null;
  const trimmed = raw.trim();
  if (trimmed === '' || /^0+$/.test(trimmed)) return null;
  return trimmed;
}

/**
 * A concatenated message gets one receipt per segment. Its outcome: the first segment that fails decides (the
 * recipient did not get the whole text); it is delivered only when every segment is. Returns null while that
 * is not yet known.
 */
export function combinedState(segmentStates: Array<string | null>): FinalState | null {
  const failed = segmentStates.find((s) => s !== null && s !== 'delivered');
  if (failed !== undefined) return failed as FinalState;
  return segmentStates.every((s) => s === 'delivered') && segmentStates.length > 0 ? 'delivered' : null;
}
