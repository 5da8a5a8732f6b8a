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
 * The septets of one character: [s] or [0x1B, s]; undefined when it has none. Callers keep these groups
 * together so a segment boundary never falls inside an escape pair.
 */
export function gsmSeptets(ch: string): number[] | undefined {
  const basic = encodeBasic.get(ch);
  if (basic !== undefined) return [basic];
  const ext = encodeExt.get(ch);
  return ext === undefined ? undefined : [GSM_ESCAPE, ext];
}

export const isGsmEncodable = (text: string): boolean => [...text].every((ch) => gsmSeptets(ch) !== undefined);
