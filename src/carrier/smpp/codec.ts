// SMPP 3.4 PDU encoding and decoding, and the frame splitter that turns a TCP byte stream into whole PDUs.
// Decoding is strict about framing (a bad length means the stream is lost) and lenient about optional bodies:
// an error response may or may not carry its message_id, as SMSCs differ.
import {
  CommandId, commandNameById,
  type BindPdu, type OptionalParams, type Pdu, type ShortMessageFields, type ShortMessagePdu,
} from './pdu-types.ts';
import { decodeTlvs, encodeTlvs } from './tlv.ts';
import { MalformedPduError } from './errors.ts';
import { recogniseForeignPeer } from './link-failure.ts';

export { MalformedPduError } from './errors.ts';

export const HEADER_LENGTH = 16;
export const MAX_PDU_LENGTH = 64 * 1024;

class Reader {
  offset = HEADER_LENGTH;
  constructor(readonly buf: Buffer) {}
  get done(): boolean { return this.offset >= this.buf.length; }
  u8(): number {
    if (this.offset + 1 > this.buf.length) throw new MalformedPduError('PDU body ends early');
    return this.buf.readUInt8(this.offset++);
  }
  cstring(): string {
    const nul = this.buf.indexOf(0, this.offset);
    if (nul === -1) throw new MalformedPduError('C-octet string without terminator');
    const s = this.buf.toString('latin1', this.offset, nul);
    this.offset = nul + 1;
    return s;
  }
  /** A view into the PDU's buffer, not a copy: decodePdu's caller owns that buffer (the frame splitter copies). */
  octets(n: number): Buffer {
    if (this.offset + n > this.buf.length) throw new MalformedPduError('PDU body ends early');
    const b = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return b;
  }
}

/** Writes fields into one growing buffer: a Buffer per field made the garbage collector the busiest part of the
 * pipeline benchmark. */
class Writer {
  buf = Buffer.allocUnsafe(256);
  offset = 0;
  private room(n: number): void {
    if (this.offset + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.offset + n));
    this.buf.copy(bigger, 0, 0, this.offset);
    this.buf = bigger;
  }
  u8(v: number): this {
    this.room(1);
    this.buf[this.offset++] = v & 0xff;
    return this;
  }
  cstring(s: string, max: number, field: string): this {
    const length = Buffer.byteLength(s, 'latin1');
    if (length + 1 > max) throw new RangeError(`${field} longer than ${max - 1} octets`);
    this.room(length + 1);
    this.offset += this.buf.write(s, this.offset, 'latin1');
    this.buf[this.offset++] = 0;
    return this;
  }
  octets(b: Buffer): this {
    this.room(b.length);
    this.offset += b.copy(this.buf, this.offset);
    return this;
  }
  /** The written octets (a view: the writer is not used again). */
  bytes(): Buffer { return this.buf.subarray(0, this.offset); }
}

/** A submit_sm or deliver_sm, built as one object literal: spreading the fields into the PDU cost more than reading them. */
function readShortMessage(r: Reader, command: ShortMessagePdu['command'], sequence: number, status: number): ShortMessagePdu {
  const serviceType = r.cstring();
  const sourceAddrTon = r.u8(), sourceAddrNpi = r.u8(), sourceAddr = r.cstring();
  const destAddrTon = r.u8(), destAddrNpi = r.u8(), destinationAddr = r.cstring();
  const esmClass = r.u8(), protocolId = r.u8(), priorityFlag = r.u8();
  const scheduleDeliveryTime = r.cstring(), validityPeriod = r.cstring();
  const registeredDelivery = r.u8(), replaceIfPresentFlag = r.u8(), dataCoding = r.u8(), smDefaultMsgId = r.u8();
  const shortMessage = r.octets(r.u8());
  return {
    command, sequence, status, serviceType, sourceAddrTon, sourceAddrNpi, sourceAddr, destAddrTon, destAddrNpi,
    destinationAddr, esmClass, protocolId, priorityFlag, scheduleDeliveryTime, validityPeriod, registeredDelivery,
    replaceIfPresentFlag, dataCoding, smDefaultMsgId, shortMessage, tlvs: decodeTlvs(r.buf, r.offset),
  };
}

function writeShortMessage(w: Writer, f: ShortMessageFields): void {
  if (f.shortMessage.length > 254) throw new RangeError('short_message longer than 254 octets; use message_payload');
  w.cstring(f.serviceType, 6, 'service_type')
    .u8(f.sourceAddrTon).u8(f.sourceAddrNpi).cstring(f.sourceAddr, 21, 'source_addr')
    .u8(f.destAddrTon).u8(f.destAddrNpi).cstring(f.destinationAddr, 21, 'destination_addr')
    .u8(f.esmClass).u8(f.protocolId).u8(f.priorityFlag)
    .cstring(f.scheduleDeliveryTime, 17, 'schedule_delivery_time').cstring(f.validityPeriod, 17, 'validity_period')
    .u8(f.registeredDelivery).u8(f.replaceIfPresentFlag).u8(f.dataCoding).u8(f.smDefaultMsgId)
    .u8(f.shortMessage.length).octets(f.shortMessage);
}

const BIND_COMMANDS = new Set(['bind_transmitter', 'bind_receiver', 'bind_transceiver']);

/**
 * Decodes one whole PDU (as produced by the frame splitter). Throws MalformedPduError. Octet fields (short_message,
 * an unknown command's body) are views into `buf`, so `buf` must not be changed afterwards: each frame the
 * splitter gives is a copy of its own.
 */
export function decodePdu(buf: Buffer): Pdu {
  if (buf.length < HEADER_LENGTH) throw new MalformedPduError('PDU shorter than its header');
  const length = buf.readUInt32BE(0);
  if (length !== buf.length) throw new MalformedPduError(`command_length ${length} but ${buf.length} octets`);
  const commandId = buf.readUInt32BE(4);
  const status = buf.readUInt32BE(8);
  const sequence = buf.readUInt32BE(12);
  const command = commandNameById.get(commandId);
  const r = new Reader(buf);
  const base = { sequence, status };
  const rest = (): OptionalParams => decodeTlvs(buf, r.offset);

  if (command === undefined) {
    return { ...base, command: 'unknown', commandId, body: buf.subarray(HEADER_LENGTH), tlvs: {} };
  }
  if (BIND_COMMANDS.has(command)) {
    const systemId = r.cstring(), password = r.cstring(), systemType = r.cstring();
    const interfaceVersion = r.u8(), addrTon = r.u8(), addrNpi = r.u8(), addressRange = r.cstring();
    return {
      ...base, command: command as BindPdu['command'], systemId, password, systemType, interfaceVersion,
      addrTon, addrNpi, addressRange, tlvs: rest(),
    };
  }
  switch (command) {
    case 'bind_transmitter_resp': case 'bind_receiver_resp': case 'bind_transceiver_resp': {
      const systemId = r.done ? '' : r.cstring();
      return { ...base, command, systemId, tlvs: rest() };
    }
    case 'submit_sm': case 'deliver_sm':
      return readShortMessage(r, command, sequence, status);
    case 'submit_sm_resp': case 'deliver_sm_resp': {
      const messageId = r.done ? '' : r.cstring();
      return { command, sequence, status, messageId, tlvs: rest() };
    }
    case 'query_sm': {
      const messageId = r.cstring(), sourceAddrTon = r.u8(), sourceAddrNpi = r.u8(), sourceAddr = r.cstring();
      return { ...base, command, messageId, sourceAddrTon, sourceAddrNpi, sourceAddr, tlvs: {} };
    }
    case 'query_sm_resp': {
      // A refused query carries no body.
      if (r.done) return { ...base, command, messageId: '', finalDate: '', messageState: 0, errorCode: 0, tlvs: {} };
      const messageId = r.cstring(), finalDate = r.cstring(), messageState = r.u8(), errorCode = r.u8();
      return { ...base, command, messageId, finalDate, messageState, errorCode, tlvs: {} };
    }
    default:
      // enquire_link, unbind, their responses and generic_nack have no body; ignore stray octets.
      return { ...base, command: command as 'enquire_link', tlvs: {} };
  }
}

/** Writes the body after the header's room; nothing for bodiless PDUs and refusals that carry none. */
function writeBody(w: Writer, pdu: Pdu): void {
  switch (pdu.command) {
    case 'bind_transmitter': case 'bind_receiver': case 'bind_transceiver':
      w.cstring(pdu.systemId, 16, 'system_id').cstring(pdu.password, 9, 'password')
        .cstring(pdu.systemType, 13, 'system_type').u8(pdu.interfaceVersion).u8(pdu.addrTon).u8(pdu.addrNpi)
        .cstring(pdu.addressRange, 41, 'address_range');
      break;
    case 'bind_transmitter_resp': case 'bind_receiver_resp': case 'bind_transceiver_resp':
      // The spec omits the body of a failed bind; sending it anyway confuses some strict ESMEs.
      if (pdu.status !== 0) return;
      w.cstring(pdu.systemId, 16, 'system_id');
      break;
    case 'submit_sm': case 'deliver_sm':
      writeShortMessage(w, pdu);
      break;
    case 'submit_sm_resp': case 'deliver_sm_resp':
      if (pdu.status !== 0) return;
      w.cstring(pdu.messageId, 65, 'message_id');
      break;
    case 'query_sm':
      w.cstring(pdu.messageId, 65, 'message_id').u8(pdu.sourceAddrTon).u8(pdu.sourceAddrNpi).cstring(pdu.sourceAddr, 21, 'source_addr');
      return;
    case 'query_sm_resp':
      if (pdu.status !== 0) return;
      w.cstring(pdu.messageId, 65, 'message_id').cstring(pdu.finalDate, 17, 'final_date').u8(pdu.messageState).u8(pdu.errorCode);
      return;
    case 'unknown':
      w.octets(pdu.body);
      return;
    default:
      return;
  }
  writeTlvs(w, pdu.tlvs);
}

/** The optional parameters after the body; most PDUs carry none, and encoding none still made two buffers. */
function writeTlvs(w: Writer, tlvs: OptionalParams): void {
  if (Object.keys(tlvs).length > 0) w.octets(encodeTlvs(tlvs));
}

/** The PDU's octets: header and body written into one buffer (no separate header, no concatenation). */
export function encodePdu(pdu: Pdu): Buffer {
  const w = new Writer();
  w.offset = HEADER_LENGTH;
  writeBody(w, pdu);
  const commandId = pdu.command === 'unknown' ? pdu.commandId : CommandId[pdu.command];
  w.buf.writeUInt32BE(w.offset, 0);
  w.buf.writeUInt32BE(commandId >>> 0, 4);
  w.buf.writeUInt32BE(pdu.status >>> 0, 8);
  w.buf.writeUInt32BE(pdu.sequence >>> 0, 12);
  return w.bytes();
}

/**
 * Splits a byte stream into whole PDUs: chunks may hold part of a PDU or several. A command_length below the
 * header size or above MAX_PDU_LENGTH means the stream cannot be resynchronised, so it throws.
 */
export function createFrameSplitter(maxLength = MAX_PDU_LENGTH): { push(chunk: Buffer): Buffer[] } {
  let pending: Buffer = Buffer.alloc(0);
  return {
    push(chunk) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const frames: Buffer[] = [];
      while (pending.length >= 4) {
        const length = pending.readUInt32BE(0);
        if (length < HEADER_LENGTH || length > maxLength) {
          const foreign = recogniseForeignPeer(pending);
          throw foreign ? new MalformedPduError(foreign, true) : new MalformedPduError(`absurd command_length ${length}`);
        }
        if (pending.length < length) break;
        frames.push(Buffer.from(pending.subarray(0, length)));
        pending = pending.subarray(length);
      }
      return frames;
    },
  };
}

/** The response a request gets: its `_resp` (generic_nack for commands we do not know), same sequence. */
export function responseTo(request: Pdu, status: number, messageId = ''): Pdu {
  const base = { sequence: request.sequence, status, tlvs: {} };
  switch (request.command) {
    case 'bind_transmitter': case 'bind_receiver': case 'bind_transceiver':
      return { ...base, command: `${request.command}_resp`, systemId: messageId };
    case 'submit_sm': case 'deliver_sm':
      return { ...base, command: `${request.command}_resp`, messageId };
    case 'enquire_link': case 'unbind':
      return { ...base, command: `${request.command}_resp` };
    case 'query_sm':
      return { ...base, command: 'query_sm_resp', messageId: request.messageId, finalDate: '', messageState: 0, errorCode: 0 };
    default:
      return { ...base, command: 'generic_nack' };
  }
}
