// Optional parameters (TLVs). Known tags decode to named fields; unknown tags are kept byte for byte and written
// back unchanged, so a PDU that passes through Tasman loses nothing it did not understand.
import type { OptionalParams } from './pdu-types.ts';
import { MalformedPduError } from './errors.ts';

type Kind = 'u8' | 'u16' | 'u32' | 'cstring' | 'octets' | 'network_error';
type NamedKey = Exclude<keyof OptionalParams, 'other'>;

// Encoding order follows this table, then `other` in the order it was received.
const TABLE: ReadonlyArray<{ key: NamedKey; tag: number; kind: Kind }> = [
  { key: 'userMessageReference', tag: 0x0204, kind: 'u16' },
  { key: 'sourcePort', tag: 0x020a, kind: 'u16' },
  { key: 'destPort', tag: 0x020b, kind: 'u16' },
  { key: 'sarMsgRefNum', tag: 0x020c, kind: 'u16' },
  { key: 'sarTotalSegments', tag: 0x020e, kind: 'u8' },
  { key: 'sarSegmentSeqnum', tag: 0x020f, kind: 'u8' },
  { key: 'scInterfaceVersion', tag: 0x0210, kind: 'u8' },
  { key: 'receiptedMessageId', tag: 0x001e, kind: 'cstring' },
  { key: 'messageState', tag: 0x0427, kind: 'u8' },
  { key: 'networkErrorCode', tag: 0x0423, kind: 'network_error' },
  { key: 'messagePayload', tag: 0x0424, kind: 'octets' },
];

export const TlvTag = Object.fromEntries(TABLE.map((e) => [e.key, e.tag])) as Record<NamedKey, number>;

const byTag = new Map(TABLE.map((e) => [e.tag, e]));

const FIXED_SIZE: Partial<Record<Kind, number>> = { u8: 1, u16: 2, u32: 4, network_error: 3 };

function decodeValue(kind: Kind, value: Buffer): unknown {
  switch (kind) {
    case 'u8': return value.readUInt8(0);
    case 'u16': return value.readUInt16BE(0);
    case 'u32': return value.readUInt32BE(0);
    // Spec says null-terminated; some SMSCs omit the terminator, so take everything before the first NUL.
    case 'cstring': {
      const nul = value.indexOf(0);
      return value.toString('latin1', 0, nul === -1 ? value.length : nul);
    }
    case 'octets': return Buffer.from(value);
    case 'network_error': return { type: value.readUInt8(0), code: value.readUInt16BE(1) };
  }
}

function encodeValue(kind: Kind, value: unknown): Buffer {
  switch (kind) {
    case 'u8': return Buffer.from([value as number]);
    case 'u16': { const b = Buffer.alloc(2); b.writeUInt16BE(value as number); return b; }
    case 'u32': { const b = Buffer.alloc(4); b.writeUInt32BE(value as number); return b; }
    case 'cstring': return Buffer.concat([Buffer.from(value as string, 'latin1'), Buffer.from([0])]);
    case 'octets': return value as Buffer;
    case 'network_error': {
      const { type, code } = value as { type: number; code: number };
      const b = Buffer.alloc(3);
      b.writeUInt8(type); b.writeUInt16BE(code, 1);
      return b;
    }
  }
}

/** Decodes the TLV area that fills the rest of a PDU body. */
export function decodeTlvs(buf: Buffer, start: number): OptionalParams {
  const out: OptionalParams = {};
  let offset = start;
  while (offset < buf.length) {
    if (offset + 4 > buf.length) throw new MalformedPduError('truncated TLV header');
    const tag = buf.readUInt16BE(offset);
    const length = buf.readUInt16BE(offset + 2);
    offset += 4;
    if (offset + length > buf.length) throw new MalformedPduError(`TLV 0x${tag.toString(16)} overruns the PDU`);
    const value = buf.subarray(offset, offset + length);
    offset += length;
    const known = byTag.get(tag);
    const fixed = known ? FIXED_SIZE[known.kind] : undefined;
    // A known tag with an impossible length is kept raw rather than guessed at.
    if (known && (fixed === undefined || fixed === length) && out[known.key] === undefined) {
      (out as Record<string, unknown>)[known.key] = decodeValue(known.kind, value);
    } else {
      (out.other ??= []).push({ tag, value: Buffer.from(value) });
    }
  }
  return out;
}

export function encodeTlvs(params: OptionalParams): Buffer {
  const parts: Buffer[] = [];
  const push = (tag: number, value: Buffer): void => {
    if (value.length > 0xffff) throw new RangeError(`TLV 0x${tag.toString(16)} longer than 65535 octets`);
    const head = Buffer.alloc(4);
    head.writeUInt16BE(tag); head.writeUInt16BE(value.length, 2);
    parts.push(head, value);
  };
  for (const { key, tag, kind } of TABLE) {
    const value = params[key];
    if (value !== undefined) push(tag, encodeValue(kind, value));
  }
  for (const tlv of params.other ?? []) push(tlv.tag, tlv.value);
  return Buffer.concat(parts);
}
