// Joining the parts of a concatenated inbound message. Part of the carrier port (modules import it, never
// smpp/): a character may straddle two parts (a UCS-2 code unit or surrogate pair, a GSM escape 0x1B at the end
// of one part and its code at the start of the next), so parts are joined as octets and decoded once.
import type { TextCoding } from './carrier.ts';
import { decodeAs } from './smpp/encoding.ts';

export interface StoredPart {
  /** The part decoded alone: the fallback when octets are missing or the parts disagree on their coding. */
  text: string;
  octets: Buffer | null;
  coding: TextCoding | null;
}

/** The whole text of a concatenated message from its parts, in order. */
export function joinInboundParts(parts: StoredPart[]): string {
  const coding = parts[0]?.coding ?? null;
  if (coding === null || parts.some((p) => p.coding !== coding || p.octets === null)) return parts.map((p) => p.text).join('');
  return decodeAs(coding, Buffer.concat(parts.map((p) => p.octets as Buffer)));
}
