import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeGsm, decodeText, encodeGsm, encodeUcs2, gsmLength, isGsmEncodable } from './encoding.ts';
import { decodeShortMessage, LIMITS, parseUdh, segmentCount, segmentText } from './segment.ts';

const GSM_CHARS = [...'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà\f^{}\\[~]|€'];
const gsmString = fc.array(fc.constantFrom(...GSM_CHARS), { maxLength: 800 }).map((a) => a.join(''));
const anyString = fc.string({ unit: 'binary', maxLength: 400 });

/** What a handset does: order parts by seq, strip UDHs, decode. */
function reassemble(text: string): string {
  const enc = segmentText(text, 42);
  const parts = enc.segments.map((shortMessage) =>
    decodeShortMessage({ dataCoding: enc.dataCoding, esmClass: enc.esmClass, shortMessage, tlvs: {} }));
  if (parts.length > 1) {
    parts.forEach((p, i) => expect(p.part).toEqual({ ref: 42, total: parts.length, seq: i + 1 }));
  }
  return parts.map((p) => p.text).join('');
}

describe('GSM 03.38', () => {
  it('encodes the basic and extension tables unpacked', () => {
    expect(encodeGsm('@£$').toString('hex')).toBe('000102');
    expect(encodeGsm('€[').toString('hex')).toBe('1b651b3c');
    expect(encodeGsm('Hi!').toString('hex')).toBe('486921');
    expect(gsmLength('a€')).toBe(3);
    expect(isGsmEncodable('héllo')).toBe(true);
    expect(isGsmEncodable('hállo')).toBe(false);
    expect(isGsmEncodable('hello 👋')).toBe(false);
  });

  it('decodes escapes, and shows the basic character after an unknown escape', () => {
    expect(decodeGsm(Buffer.from([0x1b, 0x65, 0x41]))).toBe('€A');
    expect(decodeGsm(Buffer.from([0x1b, 0x41]))).toBe('A');
  });

  it('reads data_coding 0 with octets above 0x7F as Latin-1, and 3 and 8 as Latin-1 and UCS-2', () => {
    expect(decodeText(0, Buffer.from('café', 'latin1'))).toBe('café');
    expect(decodeText(0, Buffer.from('a_b', 'latin1'), 'latin1')).toBe('a_b');
    expect(decodeText(3, Buffer.from('señor', 'latin1'))).toBe('señor');
    expect(decodeText(8, encodeUcs2('😀 ok'))).toBe('😀 ok');
  });

  it('round-trips any GSM string', () => {
    fc.assert(fc.property(gsmString, (s) => { expect(decodeGsm(encodeGsm(s))).toBe(s); }));
  });
});

describe('segmentation', () => {
  it('any string survives encode, split, reassemble and decode', () => {
    fc.assert(fc.property(fc.oneof(gsmString, anyString), (s) => { expect(reassemble(s)).toBe(s); }), { numRuns: 300 });
  });

  it('never lets a segment exceed its limit', () => {
    fc.assert(fc.property(fc.oneof(gsmString, anyString), (s) => {
      const enc = segmentText(s, 1);
      const unit = enc.dataCoding === 8 ? 2 : 1;
      const limit = enc.dataCoding === 8 ? LIMITS.ucs2 : LIMITS.gsm;
      for (const seg of enc.segments) {
        const body = enc.segments.length > 1 ? seg.length - 6 : seg.length;
        expect(body / unit).toBeLessThanOrEqual(enc.segments.length > 1 ? limit.segment : limit.single);
      }
    }));
  });

  it.each([
    ['a'.repeat(160), 0, 1], ['a'.repeat(161), 0, 2], ['a'.repeat(306), 0, 2], ['a'.repeat(307), 0, 3],
    ['€'.repeat(80), 0, 1], ['€'.repeat(80) + 'a', 0, 2],
    ['ж'.repeat(70), 8, 1], ['ж'.repeat(71), 8, 2], ['ж'.repeat(134), 8, 2], ['ж'.repeat(135), 8, 3],
    ['😀'.repeat(35), 8, 1], ['😀'.repeat(36), 8, 2],
    ['', 0, 1],
  ])('segments case %#', (text, dataCoding, parts) => {
    const enc = segmentText(text, 7);
    expect(enc.dataCoding).toBe(dataCoding);
    expect(enc.segments.length).toBe(parts);
    expect(enc.esmClass).toBe(parts > 1 ? 0x40 : 0);
  });

  it('does not split an escape pair or a surrogate pair', () => {
    const gsm = segmentText('a'.repeat(152) + '€' + 'b'.repeat(10), 1);
    expect(gsm.segments[0]?.subarray(6).length).toBe(152);
    expect(gsm.segments[1]?.subarray(6).toString('hex')).toBe('1b65' + '62'.repeat(10));
    const ucs2 = segmentText('ж'.repeat(66) + '😀' + 'x'.repeat(5), 1);
    expect(ucs2.segments[0]?.subarray(6).length).toBe(132);
    expect(decodeText(8, ucs2.segments[1]?.subarray(6) ?? Buffer.alloc(0))).toBe('😀xxxxx');
  });

  it('writes the 8-bit concatenation UDH', () => {
    const enc = segmentText('x'.repeat(200), 0xab);
    expect(enc.segments[1]?.subarray(0, 6).toString('hex')).toBe('050003ab0202');
  });

  it('parses 16-bit concatenation and other IEs, and falls back to sar_* TLVs', () => {
    const udh16 = Buffer.from([0x0a, 0x0a, 0x02, 0x00, 0x00, 0x08, 0x04, 0x12, 0x34, 0x03, 0x02]);
    expect(parseUdh(udh16)).toEqual({ length: 11, concat: { ref: 0x1234, total: 3, seq: 2 } });
    const sar = decodeShortMessage({ dataCoding: 0, esmClass: 0, shortMessage: Buffer.from('hi'),
      tlvs: { sarMsgRefNum: 300, sarTotalSegments: 2, sarSegmentSeqnum: 2 } });
    expect(sar).toEqual({ text: 'hi', part: { ref: 300, total: 2, seq: 2, octets: Buffer.from('hi'), coding: 'gsm' } });
    const payload = decodeShortMessage({ dataCoding: 8, esmClass: 0, shortMessage: Buffer.alloc(0),
      tlvs: { messagePayload: encodeUcs2('long one') } });
    expect(payload).toEqual({ text: 'long one' });
  });
});

describe('segmentCount', () => {
  it.each([
    ['', 1], ['a'.repeat(160), 1], ['a'.repeat(161), 2], ['a'.repeat(306), 2], ['a'.repeat(307), 3],
    ['€'.repeat(80), 1], ['€'.repeat(81), 2], ['é'.repeat(160), 1],
    ['ā'.repeat(70), 1], ['ā'.repeat(71), 2], ['ā'.repeat(134), 2], ['ā'.repeat(135), 3], ['😀'.repeat(35), 1],
  ])('%# counts as segmentText splits', (text, expected) => {
    expect(segmentCount(text)).toBe(expected);
    expect(segmentText(text, 7).segments.length).toBe(expected);
  });

  it('agrees with segmentText on any text', () => {
    const chars = fc.constantFrom('a', ' ', '€', '[', '^', 'é', 'ā', '😀', '\n', 'Ω');
    fc.assert(fc.property(fc.array(chars, { maxLength: 700 }).map((a) => a.join('')), (text) => {
      expect(segmentCount(text)).toBe(segmentText(text, 1).segments.length);
    }), { numRuns: 500 });
  });
});
