// The GSM 03.38 default alphabet and its extension table: which text a carrier can send in data_coding 0. The
// carrier port decides a message's encoding with it (carrier.ts); the SMPP codec encodes and decodes with it.

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

export const GSM_EXTENSION: ReadonlyArray<[number, string]> = [
  [0x0a, '\f'], [0x14, '^'], [0x28, '{'], [0x29, '}'], [0x2f, '\\'],
  [0x3c, '['], [0x3d, '~'], [0x3e, ']'], [0x40, '|'], [0x65, '€'],
];

export const GSM_ESCAPE = 0x1b;

const encodeBasic = new Map<string, number>();
[...GSM_BASIC].forEach((ch, i) => { if (i !== GSM_ESCAPE) encodeBasic.set(ch, i); });
const encodeExt = new Map(GSM_EXTENSION.map(([code, ch]) => [ch, code]));

/** The basic table's characters by septet (0x1B is the escape). */
export const GSM_BASIC_CHARS: readonly string[] = [...GSM_BASIC];

/**
 * Appends the septets of one character to `out` ([s], or [0x1B, s] for the extension table) and says whether it
 * has any (nothing is appended when not). Callers keep an escape pair together, so a segment boundary never falls
 * inside one. No array per character: segmenting runs for every message submitted.
 */
export function pushGsmSeptets(ch: string, out: number[]): boolean {
  const basic = encodeBasic.get(ch);
  if (basic !== undefined) { out.push(basic); return true; }
  const ext = encodeExt.get(ch);
  if (ext === undefined) return false;
  out.push(GSM_ESCAPE, ext);
  return true;
}

/** How many septets one character takes: 1, 2 (an escape pair), or 0 when it is not in GSM 03.38. */
export function gsmSize(ch: string): 0 | 1 | 2 {
  if (encodeBasic.has(ch)) return 1;
  return encodeExt.has(ch) ? 2 : 0;
}

export function isGsmEncodable(text: string): boolean {
  for (const ch of text) if (gsmSize(ch) === 0) return false;
  return true;
}
