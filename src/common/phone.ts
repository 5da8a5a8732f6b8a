import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Recipient number normalisation. Only Australian and New Zealand mobile numbers are sendable, so the answer is
 * either an E.164 mobile with its country, or a plain refusal (the caller maps it to `invalid_number`).
 *
 * Accepted shapes, after removing spaces, dashes, dots and brackets (and NFKC, so full-width digits and `＋` work):
 *   +614XXXXXXXX / 614XXXXXXXX    Australian mobile, international form with or without `+`
 *   +642XXXXXXX… / 642XXXXXXX…    New Zealand mobile, likewise
 *   04XXXXXXXX                    Australian local form
 *   02XXXXXXX…                    New Zealand local form (see below)
 *
 * Decisions:
 * - `02…` is ambiguous: in Australia it is the NSW/ACT landline area code, in New Zealand the mobile prefix. An AU
 *   landline is never sendable, so a local `02…` is read only as a New Zealand mobile; if it is not a valid one it
 *   is invalid. The overlap is real: `(02) 9234 5678`, a Sydney landline, is also the NZ mobile +64 29 234 5678,
 *   and is accepted as the latter. Likewise a local `04…` is read only as an Australian mobile (NZ 04 is a
 *   Wellington landline).
 * - The trunk `0` is not allowed after the country code (`+61 0412…`, `+61 (0)412…`): the contract lists the
 *   accepted forms, and E.164 has no trunk digit. libphonenumber would silently strip it; we compare its national
 *   number with ours to refuse any such rewriting (also the AU `1831`/`1832` caller-ID prefixes).
 * - International dialling prefixes (`0011 61…`, `00 64…`) are not accepted, for the same reason.
 * - Validity and number type come from libphonenumber's `max` metadata, so new mobile ranges arrive with the
 *   dependency rather than with our code; the leading-digit check (4 for AU, 2 for NZ) is a second fence.
 */
export type PhoneCountry = 'AU' | 'NZ';
export type NormalisedPhone = { ok: true; e164: string; country: PhoneCountry } | { ok: false };

const INVALID: NormalisedPhone = Object.freeze({ ok: false }) as NormalisedPhone;

/** Longer input cannot be a phone number; refusing it early bounds the work done on hostile input. */
const MAX_INPUT_LENGTH = 64;

/** Unicode dashes too: numbers pasted from documents often carry en dashes or minus signs. */
const SEPARATORS = /[\s\-.()[\]\u2010-\u2015\u2212]/gu;

const COUNTRY_BY_CODE: Readonly<Record<string, { country: PhoneCountry; mobileLead: string }>> = {
  '61': { country: 'AU', mobileLead: '4' },
  '64': { country: 'NZ', mobileLead: '2' },
};

/** Local trunk forms: which country each leading `0x` belongs to (see the `02` decision above). */
const LOCAL_PREFIXES: Readonly<Record<string, string>> = { '04': '61', '02': '64' };

export function normalisePhone(input: string): NormalisedPhone {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_INPUT_LENGTH) return INVALID;
  const compact = input.normalize('NFKC').replace(SEPARATORS, '');

  let countryCode: string;
  let national: string;
  if (/^\+?6[14]\d+$/u.test(compact)) {
    const digits = compact.startsWith('+') ? compact.slice(1) : compact;
    countryCode = digits.slice(0, 2);
    national = digits.slice(2);
  } else if (/^0\d+$/u.test(compact)) {
    const code = LOCAL_PREFIXES[compact.slice(0, 2)];
    if (code === undefined) return INVALID;
    countryCode = code;
    national = compact.slice(1);
  } else {
    return INVALID;
  }

  const expected = COUNTRY_BY_CODE[countryCode];
  if (expected === undefined || !national.startsWith(expected.mobileLead)) return INVALID;

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
  return valid ? { ok: true, e164: `+${countryCode}${national}`, country: expected.country } : INVALID;
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
