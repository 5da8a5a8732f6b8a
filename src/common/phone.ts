import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Recipient number normalisation. Only Australian and New Zealand mobile numbers are sendable, so the answer is
 * either an E.164 mobile with its country, or a refusal with its reason in words (the caller maps it to
 * `invalid_number`: `"02 9999 1234" is an Australian landline, not a mobile`).
 *
 * Accepted shapes, after removing spaces, dashes, dots and brackets (and NFKC, so full-width digits and `＋` work):
 *   +614XXXXXXXX / 614XXXXXXXX    Australian mobile, international form with or without `+`
 *   +642XXXXXXX… / 642XXXXXXX…    New Zealand mobile, likewise
 *   0…                            a local form, read in the account's country (`home`): 04… in Australia,
 *                                 02… in New Zealand
 *
 * Decisions (docs/api-contract.md, "Sending"):
 * - A local number is read only in the account's country, never guessed across the Tasman. `02 9999 1234` is a
 *   Sydney landline to an Australian account and the mobile +64 29 999 1234 to a New Zealand one; the two
 *   overlap completely for 026–029 + 7 digits, so a guess would text (and charge for) a stranger. A number that is
 *   a mobile only in the other country's local form is refused with that reason and the international form to
 *   write instead.
 * - The trunk `0` is not allowed after the country code (`+61 0412…`, `+61 (0)412…`): E.164 has no trunk digit.
 *   libphonenumber would silently strip it; we compare its national number with ours to refuse any such
 *   rewriting (also the AU `1831`/`1832` caller-ID prefixes).
 * - International dialling prefixes (`0011 61…`, `00 64…`) are not accepted, for the same reason.
 * - Validity and number type come from libphonenumber's `max` metadata, so new mobile ranges arrive with the
 *   dependency rather than with our code; the leading-digit check (4 for AU, 2 for NZ) is a second fence.
 */
export type PhoneCountry = 'AU' | 'NZ';
export type NormalisedPhone = { ok: true; e164: string; country: PhoneCountry } | { ok: false; reason: string };

/** The reason for anything that is not even an Australian or New Zealand number. */
export const NOT_AU_NZ_MOBILE = 'not an Australian or New Zealand mobile number';

/** Longer input cannot be a phone number; refusing it early bounds the work done on hostile input. */
const MAX_INPUT_LENGTH = 64;

/** Unicode dashes too: numbers pasted from documents often carry en dashes or minus signs. */
const SEPARATORS = /[\s\-.()[\]\u2010-\u2015\u2212]/gu;

const COUNTRY_BY_CODE: Readonly<Record<string, { country: PhoneCountry; mobileLead: string }>> = {
  '61': { country: 'AU', mobileLead: '4' },
  '64': { country: 'NZ', mobileLead: '2' },
};
const CODE_OF: Readonly<Record<PhoneCountry, string>> = { AU: '61', NZ: '64' };
const NAMED: Readonly<Record<PhoneCountry, string>> = { AU: 'an Australian', NZ: 'a New Zealand' };

const refuse = (reason: string): NormalisedPhone => ({ ok: false, reason });

/** The invalid-number error's sentence: the number as given, then why. */
export const invalidNumberMessage = (given: string, reason: string): string => `"${given}" is ${reason}`;

export function normalisePhone(input: string, home: PhoneCountry): NormalisedPhone {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_INPUT_LENGTH) return refuse(NOT_AU_NZ_MOBILE);
  const compact = input.normalize('NFKC').replace(SEPARATORS, '');
  if (/^\+?6[14]\d+$/u.test(compact)) {
    const digits = compact.startsWith('+') ? compact.slice(1) : compact;
    const code = digits.slice(0, 2);
    const national = digits.slice(2);
    return readMobile(code, national) ?? refuse(whyNot(code, national));
  }
  if (/^0[1-9]\d+$/u.test(compact)) return readLocal(compact.slice(1), home);
  return refuse(NOT_AU_NZ_MOBILE);
}

/** A local number: a mobile of the account's country, or a refusal that says what it is instead. */
function readLocal(national: string, home: PhoneCountry): NormalisedPhone {
  const own = readMobile(CODE_OF[home], national);
  if (own) return own;
  const other: PhoneCountry = home === 'AU' ? 'NZ' : 'AU';
  const there = readMobile(CODE_OF[other], national);
  const kind = numberKind(CODE_OF[home], national);
  const elsewhere = there?.ok ? ` (for the ${other === 'AU' ? 'Australian' : 'New Zealand'} mobile, write ${international(there.e164)})` : '';
  if (kind) return refuse(`${NAMED[home]} ${kind}, not a mobile${elsewhere}`);
  if (there?.ok) {
    return refuse(`${NAMED[other]} mobile in its local form, and this account reads local numbers as ${home === 'AU' ? 'Australian' : 'New Zealand'}: write it as ${international(there.e164)}`);
  }
  return refuse(`not a valid ${home === 'AU' ? 'Australian' : 'New Zealand'} mobile number`);
}

/** Why an international-form number under +61 or +64 is not sendable. */
function whyNot(code: string, national: string): string {
  const country = COUNTRY_BY_CODE[code]!.country;
  const kind = numberKind(code, national);
  return kind ? `${NAMED[country]} ${kind}, not a mobile` : `not a valid ${country === 'AU' ? 'Australian' : 'New Zealand'} mobile number`;
}

/** The mobile at this country code and national number, or null. */
function readMobile(countryCode: string, national: string): NormalisedPhone | null {
  const expected = COUNTRY_BY_CODE[countryCode];
  if (expected === undefined || !national.startsWith(expected.mobileLead)) return null;

  // The metadata decides validity from the leading digits and the length alone (AU and NZ mobile patterns look at
  // no more than the first four national digits), so each verdict is cached by those: a 1,000-recipient batch then
  // costs one metadata check per range instead of one per number. phone.test.ts checks the cache against the
  // uncached answer.
  const rangeKey = `${countryCode}:${national.slice(0, RANGE_DIGITS)}:${national.length}`;
  let valid = rangeVerdicts.get(rangeKey);
  if (valid === undefined) {
    valid = isMobileByMetadata(countryCode, national, expected.country);
    if (rangeVerdicts.size >= MAX_CACHED_RANGES) rangeVerdicts.clear();
    rangeVerdicts.set(rangeKey, valid);
  }
  return valid ? { ok: true, e164: `+${countryCode}${national}`, country: expected.country } : null;
}

/** What a valid non-mobile number is, in words ("landline"), or null when it is no valid number at all. */
function numberKind(countryCode: string, national: string): string | null {
  const parsed = parsePhoneNumberFromString(`+${countryCode}${national}`);
  if (parsed === undefined || !parsed.isValid() || parsed.nationalNumber !== national) return null;
  switch (parsed.getType()) {
    case 'FIXED_LINE': return 'landline';
    case 'TOLL_FREE': return 'freephone number';
    case 'SHARED_COST': return 'shared-cost number';
    case 'PREMIUM_RATE': return 'premium-rate number';
    case 'VOIP': return 'VoIP number';
    case 'PAGER': return 'pager number';
    case 'MOBILE':
    case 'FIXED_LINE_OR_MOBILE': return null;
    default: return 'number';
  }
}

/** +64 29 999 1234: the form to tell a person to write. */
function international(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

const RANGE_DIGITS = 5;
const MAX_CACHED_RANGES = 50_000;
const rangeVerdicts = new Map<string, boolean>();

/** The uncached check against libphonenumber's metadata; exported for the test that guards the cache. */
export function isMobileByMetadata(countryCode: string, national: string, country: PhoneCountry): boolean {
  const parsed = parsePhoneNumberFromString(`+${countryCode}${national}`);
  if (parsed === undefined || !parsed.isValid()) return false;
  if (parsed.country !== country || parsed.nationalNumber !== national) return false;
  const type = parsed.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}

/** Strict E.164 shape: `+`, a non-zero first digit, at most 15 digits. Says nothing about validity. */
export function isE164(s: string): boolean {
  return /^\+[1-9]\d{1,14}$/u.test(s);
}
