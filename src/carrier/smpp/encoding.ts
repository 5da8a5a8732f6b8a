// Text <-> octets for short_message. Outbound: GSM 03.38 default alphabet when every character has a septet
// (extension characters take two: 0x1B then the code), sent UNPACKED, one septet per octet, which is what
// data_coding 0 means to nearly every SMSC (the SMSC packs for the air interface); otherwise UCS-2 big-endian,
// data_coding 8, where characters outside the BMP become surrogate pairs (two code units).
import type { TextCoding } from '../carrier.ts';
import { DataCoding } from './pdu-types.ts';
import { GSM_BASIC_CHARS, GSM_ESCAPE, GSM_EXTENSION, gsmSize, isGsmEncodable, pushGsmSeptets } from '../gsm-alphabet.ts';

const decodeExt = new Map(GSM_EXTENSION);
const basicChars = GSM_BASIC_CHARS;

export { GSM_ESCAPE, gsmSize, isGsmEncodable, pushGsmSeptets };

/** Septet count (extension characters count two), or undefined when the text needs UCS-2. */
export function gsmLength(text: string): number | undefined {
  let n = 0;
  for (const ch of text) {
    const size = gsmSize(ch);
    if (size === 0) return undefined;
    n += size;
  }
  return n;
}

export function encodeGsm(text: string): Buffer {
  const out: number[] = [];
  for (const ch of text) {
    if (!pushGsmSeptets(ch, out)) throw new RangeError(`character U+${ch.codePointAt(0)?.toString(16)} is not in GSM 03.38`);
  }
  return Buffer.from(out);
}

/** Unpacked septets to text. An escape before an unknown code shows the basic character, as 03.38 asks. */
export function decodeGsm(octets: Buffer): string {
  let out = '';
  for (let i = 0; i < octets.length; i++) {
    const septet = (octets[i] ?? 0) & 0x7f;
    if (septet === GSM_ESCAPE) {
      const next = octets[i + 1];
      if (next === undefined) break;
      i++;
      out += decodeExt.get(next & 0x7f) ?? basicChars[next & 0x7f] ?? '';
      continue;
    }
    out += basicChars[septet] ?? '';
  }
  return out;
}

export function encodeUcs2(text: string): Buffer {
  const b = Buffer.from(text, 'utf16le');
  b.swap16();
  return b;
}

export function decodeUcs2(octets: Buffer): string {
  // An odd trailing octet is a broken SMSC; drop it rather than fail the whole message.
  const b = Buffer.from(octets.subarray(0, octets.length - (octets.length % 2)));
  b.swap16();
  return b.toString('utf16le');
}

export type InboundDefaultAlphabet = 'gsm' | 'latin1';

/**
 * How short_message octets (UDH already removed) are read, by data_coding. data_coding 0 is "SMSC default": GSM
 * unpacked on most SMSCs, but octets above 0x7F cannot be septets, so such a message is read as Latin-1; an SMSC
 * known to send ASCII/Latin-1 under 0 can be configured with `defaultAlphabet: 'latin1'`.
 */
export function textCodingOf(dataCoding: number, octets: Buffer, defaultAlphabet: InboundDefaultAlphabet = 'gsm'): TextCoding {
  const gsmOrLatin1 = (): TextCoding => (defaultAlphabet === 'gsm' && octets.every((o) => o < 0x80) ? 'gsm' : 'latin1');
  if (dataCoding === DataCoding.DEFAULT) return gsmOrLatin1();
  if (dataCoding === DataCoding.UCS2) return 'ucs2';
  // 0xF0-0xFF: message class coding, bit 2 picks 8-bit data over the default alphabet.
  if ((dataCoding & 0xf0) === 0xf0) return dataCoding & 0x04 ? 'latin1' : gsmOrLatin1();
  // 1 (IA5), 3 (Latin-1) and the 8-bit binary codings read best as Latin-1.
  return 'latin1';
}

/** Octets to text in a coding. Parts of a concatenated message are joined as octets first, then decoded. */
export function decodeAs(coding: TextCoding, octets: Buffer): string {
  if (coding === 'gsm') return decodeGsm(octets);
  if (coding === 'ucs2') return decodeUcs2(octets);
  return octets.toString('latin1');
}

export function decodeText(dataCoding: number, octets: Buffer, defaultAlphabet: InboundDefaultAlphabet = 'gsm'): string {
  return decodeAs(textCodingOf(dataCoding, octets, defaultAlphabet), octets);
}
