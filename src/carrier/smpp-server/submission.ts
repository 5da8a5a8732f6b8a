// A customer's submit_sm read into one Tasman message: addresses as the send path reads them, the text decoded by
// its data_coding, the times parsed. A refusal here is answered with its command status before the send path runs.
import { EsmClass, Status, Ton, type ShortMessagePdu } from '../smpp/pdu-types.ts';
import { decodeShortMessage } from '../smpp/segment.ts';
import type { InboundDefaultAlphabet } from '../smpp/encoding.ts';
import type { Submission } from '../esme-port.ts';
import type { CustomerPart } from '../carrier.ts';
import { parseSmppTime } from './smpp-time.ts';

export type ReadSubmission = { ok: true; submission: Submission } | { ok: false; status: number; reason: string };

const SUPPORTED_CODINGS = new Set([0, 1, 3, 8]);

/** destination_addr: TON international gets its +; national and unknown go as given, read by the account's country. */
function destination(pdu: ShortMessagePdu): string | null {
  const addr = pdu.destinationAddr.trim();
  if (!/^\+?\d{3,20}$/.test(addr)) return null;
  return pdu.destAddrTon === Ton.INTERNATIONAL && !addr.startsWith('+') ? `+${addr}` : addr;
}

/** source_addr: empty for the account's default sender; TON international numbers get their +. */
function source(pdu: ShortMessagePdu): string | null {
  const addr = pdu.sourceAddr.trim();
  if (addr === '') return null;
  return pdu.sourceAddrTon === Ton.INTERNATIONAL && /^\d+$/.test(addr) ? `+${addr}` : addr;
}

/** Which concatenation fields a part came with: a UDH with IE 0x08 (16-bit reference) or 0x00, else sar_* TLVs. */
function partForm(pdu: ShortMessagePdu): CustomerPart['form'] {
  if (!(pdu.esmClass & EsmClass.UDHI)) return 'sar';
  const octets = pdu.tlvs.messagePayload ?? pdu.shortMessage;
  const end = 1 + (octets[0] ?? 0);
  for (let i = 1; i + 1 < end; i += 2 + (octets[i + 1] ?? 0)) {
    if (octets[i] === 0x08) return 'udh16';
    if (octets[i] === 0x00) return 'udh8';
  }
  return 'sar';
}

export function readSubmission(pdu: ShortMessagePdu, options: { now: Date; defaultAlphabet: InboundDefaultAlphabet }): ReadSubmission {
  const to = destination(pdu);
  if (to === null) return { ok: false, status: Status.ESME_RINVDSTADR, reason: 'destination_addr is not a phone number' };
  if (!SUPPORTED_CODINGS.has(pdu.dataCoding)) {
    return { ok: false, status: Status.ESME_RX_P_APPN, reason: `data_coding ${pdu.dataCoding} is not supported (0, 1, 3 or 8)` };
  }
  if (pdu.tlvs.messagePayload !== undefined && pdu.shortMessage.length > 0) {
    return { ok: false, status: Status.ESME_RINVMSGLEN, reason: 'both short_message and message_payload are set' };
  }
  const schedule = parseSmppTime(pdu.scheduleDeliveryTime, options.now);
  if (!schedule.ok) return { ok: false, status: Status.ESME_RINVSCHED, reason: `schedule_delivery_time: ${schedule.reason}` };
  const validity = parseSmppTime(pdu.validityPeriod, options.now);
  if (!validity.ok) return { ok: false, status: Status.ESME_RINVEXPIRY, reason: `validity_period: ${validity.reason}` };
  if (validity.at && validity.at.getTime() <= (schedule.at ?? options.now).getTime()) {
    return { ok: false, status: Status.ESME_RINVEXPIRY, reason: 'validity_period ends before the message is due' };
  }
  // data_coding 1 (IA5/ASCII) reads as Latin-1, as SMSCs treat it.
  const decoded = decodeShortMessage({ ...pdu, dataCoding: pdu.dataCoding === 1 ? 3 : pdu.dataCoding }, options.defaultAlphabet);
  return {
    ok: true,
    submission: {
      to, from: source(pdu), text: decoded.text, sendAt: schedule.at, validUntil: validity.at,
      source: { addr: pdu.sourceAddr, ton: pdu.sourceAddrTon, npi: pdu.sourceAddrNpi },
      destination: { addr: pdu.destinationAddr, ton: pdu.destAddrTon, npi: pdu.destAddrNpi },
      receipt: (pdu.registeredDelivery & 0x03) !== 0,
      ...(decoded.part ? { part: { form: partForm(pdu), ref: decoded.part.ref, total: decoded.part.total, seq: decoded.part.seq } } : {}),
    },
  };
}
