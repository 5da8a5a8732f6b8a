/**
 * Opt-out keyword detection on inbound (MO) messages. Contract: a message whose first word is one of the
 * keywords below, in any case, with punctuation ignored, is an opt-out; "OPT OUT" and "STOP ALL" too.
 *
 * How "first word" is read:
 * - The text is NFKC-normalised first, so full-width (`ＳＴＯＰ`) and compatibility forms match, and invisible
 *   format characters (zero-width space and joiner, soft hyphen, BOM) are removed, since phones insert them.
 * - A word is a run of letters and digits; everything else (spaces, punctuation, symbols, emoji) separates words
 *   and is skipped before the first one. So `*STOP*`, `Stop.`, `🛑 stop` and `"Unsubscribe"` all match, while
 *   `stopping` and `STOP2` are different words and do not.
 * - `OPT` followed by `OUT` as the next word is `OPTOUT`, which covers `OPT-OUT`, `opt out` and `Opt. Out`.
 * The rule deliberately looks at the first word only, as the contract says: `Cancel my booking` is an opt-out,
 * `Please stop` is not. Where the reading is doubtful it leans towards recording the opt-out, the safe side of
 * the spam rules.
 */
export const OPTOUT_KEYWORDS: readonly string[] = Object.freeze([
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'OPTOUT',
]);

const KEYWORDS = new Set(OPTOUT_KEYWORDS);

/** Default-ignorable format characters that can hide inside a word. */
const FORMAT_CHARS = /\p{Cf}/gu;

/** The first two words; leading non-word characters skipped. Linear: the classes are disjoint. */
const FIRST_WORDS = /^[^\p{L}\p{N}]*([\p{L}\p{N}]+)(?:[^\p{L}\p{N}]+([\p{L}\p{N}]+))?/u;

/** Only the start of a message matters; bounding it keeps normalisation cheap on long inbound text. */
const PREFIX_LENGTH = 256;

/** The first two words, upper case, read as described above; null when the text has no word. */
function firstWords(text: string): [string, string] | null {
  const head = text.slice(0, PREFIX_LENGTH).normalize('NFKC').replace(FORMAT_CHARS, '');
  const match = FIRST_WORDS.exec(head);
  return match === null ? null : [(match[1] ?? '').toUpperCase(), (match[2] ?? '').toUpperCase()];
}

/**
 * Re-subscription: START, UNSTOP or SUBSCRIBE as the first word, read like the opt-out keywords (what carriers
 * and Twilio honour). Not in the interface document, which lists only opt-out keywords.
 */
export const OPTIN_KEYWORDS: readonly string[] = Object.freeze(['START', 'UNSTOP', 'SUBSCRIBE']);
const OPTIN = new Set(OPTIN_KEYWORDS);

export function isOptIn(text: string): boolean {
  const words = firstWords(text);
  return words !== null && OPTIN.has(words[0]);
}

export function isOptOut(text: string): boolean {
  const words = firstWords(text);
  if (words === null) return false;
  const [first, second] = words;
  if (KEYWORDS.has(first)) return true;
  return first === 'OPT' && second === 'OUT';
}
