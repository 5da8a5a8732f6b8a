// One part of a customer's own long message, as one submit_sm: the text in GSM 03.38 (unpacked) when it can be,
// else UCS-2, with the customer's concatenation fields as they gave them (UDH or sar_* TLVs), so the handset joins
// it with the parts Tasman sent as messages of their own.
import { DataCoding, EsmClass, type OptionalParams } from './pdu-types.ts';
import { encodeGsm, encodeUcs2, isGsmEncodable } from './encoding.ts';
import { concatUdh } from './segment.ts';
import type { CustomerPart } from '../carrier.ts';

/** What one SMS carries: 140 octets, UDH included. */
const SMS_OCTETS = 140;

export function encodeCustomerPart(text: string, part: CustomerPart): { dataCoding: number; esmClass: number; shortMessage: Buffer; tlvs: OptionalParams } {
  const gsm = isGsmEncodable(text);
  const octets = gsm ? encodeGsm(text) : encodeUcs2(text);
  const dataCoding = gsm ? DataCoding.DEFAULT : DataCoding.UCS2;
  // Unpacked GSM takes an octet a septet here but 7/8 of one on the air: the SMSC packs it.
  const airOctets = gsm ? Math.ceil((octets.length * 7) / 8) : octets.length;
  if (part.form === 'sar') {
    if (airOctets > SMS_OCTETS) throw new RangeError('the part does not fit in one SMS');
    return { dataCoding, esmClass: 0, shortMessage: octets, tlvs: { sarMsgRefNum: part.ref, sarTotalSegments: part.total, sarSegmentSeqnum: part.seq } };
  }
  const udh = concatUdh(part.ref, part.total, part.seq, part.form === 'udh16' ? 16 : 8);
  // With a UDH, GSM septets start on a septet boundary after it (fill bits): count whole septets.
  const udhSeptets = Math.ceil((udh.length * 8) / 7);
  if (gsm ? udhSeptets + octets.length > 160 : udh.length + octets.length > SMS_OCTETS) throw new RangeError('the part does not fit in one SMS with its header');
  return { dataCoding, esmClass: EsmClass.UDHI, shortMessage: Buffer.concat([udh, octets]), tlvs: {} };
}
