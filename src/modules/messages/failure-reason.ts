/**
 * Why a message failed (or was cancelled), as a stable `error_code` and one sentence for a person. Derived from
 * what the row already records, never stored twice:
 * - a refusal at submit keeps the SMPP status name (`ESME_RINVDSTADR`) or the link's own code in `error_code`
 *   (cleared when the SMSC accepts the message, so a failed message that still has one never left);
 * - a final receipt that is not `delivered` names its state (`undelivered`, `expired`, `rejected`, `deleted`,
 *   `unknown`), with the SMSC's `err:` value in the sentence;
 * - a cancelled message records why (`cancelled` by the customer, `opted_out` when the recipient opted out).
 * Anything else (queued, sent, delivered) has no reason: both fields are null.
 */
export interface FailureFacts {
  status: string;
  errorCode: string | null;
  dlrStatus: string | null;
  dlrErrorCode: string | null;
}

export interface FailureReason {
  code: string;
  message: string;
}

const SMPP_SENTENCES: Record<string, string> = {
  ESME_RINVDSTADR: 'The carrier refused the message: the destination number is not valid.',
  ESME_RINVSRCADR: 'The carrier refused the message: the sender is not valid.',
  ESME_RINVMSGLEN: 'The carrier refused the message: its length is not valid.',
  ESME_RINVDSTTON: 'The carrier refused the message: the destination number type is not valid.',
  ESME_RINVDSTNPI: 'The carrier refused the message: the destination numbering plan is not valid.',
  ESME_RINVSRCTON: 'The carrier refused the message: the sender type is not valid.',
  ESME_RINVSRCNPI: 'The carrier refused the message: the sender numbering plan is not valid.',
  ESME_RSUBMITFAIL: 'The carrier refused the message (submit failed).',
  ESME_RSYSERR: 'The carrier reported a system error and did not accept the message.',
  ESME_RMSGQFUL: 'The carrier\'s queue stayed full and the message could not be handed over.',
  ESME_RTHROTTLED: 'The carrier kept throttling and the message could not be handed over.',
  ESME_RX_P_APPN: 'The carrier rejected the message permanently.',
  ESME_RX_R_APPN: 'The carrier rejected the message.',
  ESME_RDELIVERYFAILURE: 'The carrier reported a delivery failure at submit.',
};

const OWN_SENTENCES: Record<string, string> = {
  cancelled: 'The message was cancelled before it was sent.',
  opted_out: 'The recipient opted out before the message was sent, so it was cancelled.',
  content_deleted: 'The message body was removed by retention before it could be sent.',
  message_too_long: 'The message could not be encoded for the carrier.',
  invalid_address: 'The sender or recipient address is too long for the carrier.',
  connection_lost: 'The connection to the carrier was lost and retries ran out.',
  response_timeout: 'The carrier did not answer in time and retries ran out.',
  not_bound: 'The carrier link was not available and retries ran out.',
  closed: 'The carrier link was closed and retries ran out.',
  carrier_error: 'The carrier link failed and retries ran out.',
  expired: 'The message expired before the carrier accepted it.',
  validity_expired: 'The validity period the message was submitted with ended before it could be sent; its credits were refunded.',
  partially_sent: 'The carrier accepted some parts of the message and refused the rest; the parts never accepted were refunded.',
};

const RECEIPT_SENTENCES: Record<string, string> = {
  undelivered: 'The carrier could not deliver the message to the handset',
  expired: 'The carrier gave up delivering the message before the handset could receive it',
  rejected: 'The carrier rejected the message',
  deleted: 'The carrier deleted the message before delivery',
  unknown: 'The carrier reported that the outcome is unknown',
};

export function failureReason(m: FailureFacts): FailureReason | null {
  if (m.status === 'cancelled') {
    const code = m.errorCode ?? 'cancelled';
    return { code, message: OWN_SENTENCES[code] ?? OWN_SENTENCES.cancelled! };
  }
  if (m.status !== 'failed') return null;
  // error_code is cleared when the SMSC accepts a message, so one still set means it never left: the refusal (or
  // Tasman's own reason) explains it, even though a synthetic `rejected`/`expired` receipt now accompanies it.
  if (m.errorCode === null && m.dlrStatus !== null && m.dlrStatus !== 'delivered') {
    const lead = RECEIPT_SENTENCES[m.dlrStatus] ?? `The carrier reported the message ${m.dlrStatus}`;
    const code = m.dlrStatus === 'unknown' ? 'delivery_unknown' : m.dlrStatus;
    if (m.dlrErrorCode === 'no_receipt') {
      return { code, message: 'No delivery receipt came within the validity period; the carrier no longer tries to deliver it.' };
    }
    return { code, message: m.dlrErrorCode ? `${lead} (error ${m.dlrErrorCode}).` : `${lead}.` };
  }
  const code = m.errorCode ?? 'failed';
  const known = SMPP_SENTENCES[code] ?? OWN_SENTENCES[code];
  if (known) return { code, message: known };
  if (code.startsWith('ESME_') || code.startsWith('0x')) return { code, message: `The carrier refused the message (${code}).` };
  return { code, message: `The message could not be sent (${code}).` };
}
