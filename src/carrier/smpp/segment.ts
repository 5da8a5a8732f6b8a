// Splitting outbound text into short_message payloads, and reading the concatenation header of inbound ones.
// Limits: one message holds 160 GSM septets or 70 UCS-2 code units; a concatenated segment gives 6 octets to
// the UDH and holds 153 septets or 67 code units. Segments end on character boundaries, so an escape pair
// (0x1B + code) or a surrogate pair is never split across two segments.
import { DataCoding, EsmClass, type OptionalParams } from './pdu-types.ts';
import type { TextCoding } from '../carrier.ts';
import { decodeAs, encodeUcs2, gsmSize, pushGsmSeptets, textCodingOf, type InboundDefaultAlphabet } from './encoding.ts';

export const LIMITS = {
  gsm: { single: 160, segment: 153 },
  ucs2: { single: 70, segment: 67 },
} as const;

export const MAX_SEGMENTS = 255;

export interface EncodedMessage {
  dataCoding: number;
  /** esm_class to send: UDHI (0x40) when the message is concatenated. */
  esmClass: number;
  /** short_message of each segment, UDH included. */
  segments: Buffer[];
}

/**
 * The text in its coding as one buffer, and where each character's octets end: a segment may end only there. One
 * buffer, not one per character: this runs for every message submitted.
 */
function encodeText(text: string): { dataCoding: number; octets: Buffer; ends: number[]; octetsPerUnit: 1 | 2 } {
  const septets: number[] = [];
  const ends: number[] = [];
  for (const ch of text) {
    if (!pushGsmSeptets(ch, septets)) {
      // UCS-2: a character is one code unit, or two for a surrogate pair (`ch` is a whole code point).
      let end = 0;
      ends.length = 0;
      for (const c of text) ends.push(end += 2 * c.length);
      return { dataCoding: DataCoding.UCS2, octets: encodeUcs2(text), ends, octetsPerUnit: 2 };
    }
    ends.push(septets.length);
  }
  return { dataCoding: DataCoding.DEFAULT, octets: Buffer.from(septets), ends, octetsPerUnit: 1 };
}

/**
 * How many segments `segmentText` makes of a text with an 8-bit reference, without encoding it: what the carrier
 * carries (and bills by), as against the credits the interface document charges.
 */
export function segmentCount(text: string): number {
  let gsm = true;
  const sizes: number[] = [];
  for (const ch of text) {
    const size = gsmSize(ch);
    if (size === 0) { gsm = false; break; }
    sizes.push(size);
  }
  if (!gsm) {
    sizes.length = 0;
    for (const ch of text) sizes.push(ch.length);
  }
  const limits = gsm ? LIMITS.gsm : LIMITS.ucs2;
  const total = sizes.reduce((n, s) => n + s, 0);
  if (total <= limits.single) return 1;
  let segments = 1;
  let used = 0;
  for (const n of sizes) {
    if (used + n > limits.segment) { segments += 1; used = 0; }
    used += n;
  }
  return segments;
}

/** Width of the concatenation reference: IE 0x00 (8-bit) or IE 0x08 (16-bit, one octet more of UDH). */
export type ConcatRefBits = 8 | 16;

export function concatUdh(ref: number, total: number, seq: number, bits: ConcatRefBits = 8): Buffer {
  // UDHL 6, IE 0x08 (16-bit reference concatenation), IEL 4, ref (big-endian), total, seq.
  if (bits === 16) return Buffer.from([0x06, 0x08, 0x04, (ref >> 8) & 0xff, ref & 0xff, total, seq]);
  // UDHL 5, IE 0x00 (8-bit reference concatenation), IEL 3, ref, total, seq.
  return Buffer.from([0x05, 0x00, 0x03, ref & 0xff, total, seq]);
}

/**
 * Encodes text for submit_sm. `ref` is the concatenation reference (0-255, or 0-65535 with 16 bits); it must not
 * repeat for one recipient while a message is in flight (see concat-ref.ts). Given as a function, it is asked for
 * only when the text needs more than one segment. The 16-bit header takes one octet more, so a segment holds one
 * unit fewer (152 septets, 66 UCS-2 code units).
 */
export function segmentText(text: string, ref: number | (() => number), bits: ConcatRefBits = 8): EncodedMessage {
  const { dataCoding, octets, ends, octetsPerUnit } = encodeText(text);
  const limits = dataCoding === DataCoding.UCS2 ? LIMITS.ucs2 : LIMITS.gsm;
  if (octets.length <= limits.single * octetsPerUnit) return { dataCoding, esmClass: 0, segments: [octets] };
  const perSegment = (limits.segment - (bits === 16 ? 1 : 0)) * octetsPerUnit;

  // Where each segment starts: a character that would overflow the current segment starts the next one.
  const starts = [0];
  let start = 0;
  let previous = 0;
  for (const end of ends) {
    if (end - start > perSegment) starts.push(start = previous);
    previous = end;
  }
  if (starts.length > MAX_SEGMENTS) throw new RangeError(`message needs ${starts.length} segments`);
  const reference = typeof ref === 'function' ? ref() : ref;
  const segments = starts.map((from, i) =>
    Buffer.concat([concatUdh(reference, starts.length, i + 1, bits), octets.subarray(from, starts[i + 1] ?? octets.length)]));
  return { dataCoding, esmClass: EsmClass.UDHI, segments };
}

export interface ConcatInfo {
  ref: number;
  total: number;
  seq: number;
}

/** Reads the UDH at the start of `octets`: its total length and any concatenation IE (8- or 16-bit ref). */
export function parseUdh(octets: Buffer): { length: number; concat?: ConcatInfo } | undefined {
  const udhl = octets[0];
  if (udhl === undefined || udhl + 1 > octets.length) return undefined;
  let concat: ConcatInfo | undefined;
  let i = 1;
  while (i + 2 <= udhl + 1) {
    const iei = octets[i] as number;
    const iel = octets[i + 1] as number;
    const data = octets.subarray(i + 2, i + 2 + iel);
    if (i + 2 + iel > udhl + 1) break;
    if (iei === 0x00 && iel === 3) concat = { ref: data[0] as number, total: data[1] as number, seq: data[2] as number };
    if (iei === 0x08 && iel === 4) {
      concat = { ref: data.readUInt16BE(0), total: data[2] as number, seq: data[3] as number };
    }
    i += 2 + iel;
  }
  return concat ? { length: udhl + 1, concat } : { length: udhl + 1 };
}

export interface DecodedShortMessage {
  text: string;
  part?: ConcatInfo & { octets: Buffer; coding: TextCoding };
}

/**
 * Decodes an inbound submit/deliver body: message_payload wins over short_message (the spec forbids both), the
 * UDH is stripped when UDHI is set, and concatenation comes from the UDH or else from the sar_* TLVs.
 */
export function decodeShortMessage(
  pdu: { dataCoding: number; esmClass: number; shortMessage: Buffer; tlvs: OptionalParams },
  defaultAlphabet: InboundDefaultAlphabet = 'gsm',
): DecodedShortMessage {
  let octets = pdu.tlvs.messagePayload ?? pdu.shortMessage;
  let part: ConcatInfo | undefined;
  if (pdu.esmClass & EsmClass.UDHI) {
    const udh = parseUdh(octets);
    if (udh) {
      octets = octets.subarray(udh.length);
      part = udh.concat;
    }
  }
  const { sarMsgRefNum: ref, sarTotalSegments: total, sarSegmentSeqnum: seq } = pdu.tlvs;
  if (!part && ref !== undefined && total !== undefined && seq !== undefined) part = { ref, total, seq };
  const coding = textCodingOf(pdu.dataCoding, octets, defaultAlphabet);
  const text = decodeAs(coding, octets);
  // A "concatenated" message of one part is just a message.
  return part && part.total > 1 ? { text, part: { ...part, octets: Buffer.from(octets), coding } } : { text };
}
