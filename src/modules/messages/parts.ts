/**
 * Billing parts, as the interface document defines them: a message of up to 160 characters is one part, a longer
 * one costs one part per 154 characters. Length is counted in Unicode code points, after merge fields and
 * `{{OptOutLink}}` are substituted, so an emoji (a surrogate pair in UTF-16) counts once.
 *
 * This is what the customer is charged, and deliberately independent of how the carrier link encodes the text
 * (GSM-7 or UCS-2, 153 / 67 characters per concatenated segment): that lives with the SMPP code.
 */

/** Longest accepted message, in code points, after substitution (longer is 400 `message_too_long`). */
export const MAX_MESSAGE_CHARS = 1600;

/** Up to this many code points is a single part. */
export const SINGLE_PART_CHARS = 160;

/** Code points per part once a message is longer than a single part. */
export const MULTI_PART_CHARS = 154;

/** Length in Unicode code points; a lone surrogate counts as one, as the string iterator yields it alone. */
export function codePointLength(text: string): number {
  let n = 0;
  // Counting without materialising an array: bodies are counted once per batch recipient.
  for (const _ of text) n++;
  return n;
}

/** Parts billed for `text`. An empty text is refused before billing; it is answered 1 so the function is total. */
export function countParts(text: string): number {
  const length = codePointLength(text);
  if (length <= SINGLE_PART_CHARS) return 1;
  return Math.ceil(length / MULTI_PART_CHARS);
}
