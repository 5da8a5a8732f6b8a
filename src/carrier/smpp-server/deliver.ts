// deliver_sm for a customer's ESME: a delivery receipt (esm_class 0x04, the standard receipt text of SMPP 3.4
// Appendix B, receipted_message_id and message_state) or an inbound message (esm_class 0; long text in
// message_payload rather than split, so the ESME gets it whole).
import { EsmClass, MessageState, shortMessageDefaults, type ShortMessagePdu } from '../smpp/pdu-types.ts';
import { encodeGsm, encodeUcs2, isGsmEncodable } from '../smpp/encoding.ts';
import type { EsmeDelivery, EsmeReceiptState } from '../esme-port.ts';
import { receiptDate } from './smpp-time.ts';

const RECEIPT: Record<EsmeReceiptState, { stat: string; state: number }> = {
  delivered: { stat: 'DELIVRD', state: MessageState.DELIVERED },
  undelivered: { stat: 'UNDELIV', state: MessageState.UNDELIVERABLE },
  expired: { stat: 'EXPIRED', state: MessageState.EXPIRED },
  rejected: { stat: 'REJECTD', state: MessageState.REJECTED },
  deleted: { stat: 'DELETED', state: MessageState.DELETED },
  unknown: { stat: 'UNKNOWN', state: MessageState.UNKNOWN },
};

/** The receipt text: `id:… sub:001 dlvrd:… submit date:… done date:… stat:… err:… text:…` (first 20 characters). */
export function receiptText(d: Extract<EsmeDelivery, { kind: 'receipt' }>): string {
  const err = d.errorCode && /^\d{1,3}$/.test(d.errorCode) ? d.errorCode.padStart(3, '0') : '000';
  // The text field is informational and read as ASCII: anything else becomes '?', as SMSCs do.
  const sample = [...d.text].slice(0, 20).join('').replace(/[^\x20-\x7e]/g, '?');
  return `id:${d.messageId} sub:001 dlvrd:${d.state === 'delivered' ? '001' : '000'} submit date:${receiptDate(new Date(d.submittedAt))} ` +
    `done date:${receiptDate(new Date(d.doneAt))} stat:${RECEIPT[d.state].stat} err:${err} text:${sample}`;
}

const SHORT_MESSAGE_MAX = 254;

export function deliverSmFor(d: EsmeDelivery): ShortMessagePdu {
  const base = {
    ...shortMessageDefaults(), command: 'deliver_sm' as const, sequence: 0, status: 0,
    sourceAddrTon: d.from.ton, sourceAddrNpi: d.from.npi, sourceAddr: d.from.addr,
    destAddrTon: d.to.ton, destAddrNpi: d.to.npi, destinationAddr: d.to.addr,
  };
  if (d.kind === 'receipt') {
    return {
      ...base, esmClass: EsmClass.SMSC_RECEIPT, shortMessage: Buffer.from(receiptText(d), 'latin1'),
      tlvs: { receiptedMessageId: d.messageId, messageState: RECEIPT[d.state].state },
    };
  }
  const gsm = isGsmEncodable(d.text);
  const octets = gsm ? encodeGsm(d.text) : encodeUcs2(d.text);
  const dataCoding = gsm ? 0 : 8;
  return octets.length <= SHORT_MESSAGE_MAX
    ? { ...base, dataCoding, shortMessage: octets, tlvs: {} }
    : { ...base, dataCoding, shortMessage: Buffer.alloc(0), tlvs: { messagePayload: octets } };
}
