import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isE164, isMobileByMetadata, normalisePhone } from './phone.ts';

const valid: Array<[input: string, e164: string, country: 'AU' | 'NZ']> = [
  // Australian mobiles, every accepted shape
  ['+61412345678', '+61412345678', 'AU'],
  ['61412345678', '+61412345678', 'AU'],
  ['0412345678', '+61412345678', 'AU'],
  ['0412 345 678', '+61412345678', 'AU'],
  ['0412-345-678', '+61412345678', 'AU'],
  ['0412.345.678', '+61412345678', 'AU'],
  ['(0412) 345 678', '+61412345678', 'AU'],
  ['+61 412 345 678', '+61412345678', 'AU'],
  ['+61-412-345-678', '+61412345678', 'AU'],
  ['+(61) 412 345 678', '+61412345678', 'AU'],
  ['  +61412345678  ', '+61412345678', 'AU'],
  ['+61\t412\u00a0345\u2009678', '+61412345678', 'AU'],
  ['0412\u2013345\u2013678', '+61412345678', 'AU'],
  ['＋６１４１２３４５６７８', '+61412345678', 'AU'],
  // simulator-style and ACMA fictitious numbers
  ['+61400000999', '+61400000999', 'AU'],
  ['+61400000998', '+61400000998', 'AU'],
  ['+61400000997', '+61400000997', 'AU'],
  ['+61400000996', '+61400000996', 'AU'],
  ['0400 000 999', '+61400000999', 'AU'],
  ['+61491570156', '+61491570156', 'AU'],
  ['0491 570 006', '+61491570006', 'AU'],
  ['+61479012345', '+61479012345', 'AU'],
  ['+61444123456', '+61444123456', 'AU'],
  // New Zealand mobiles: 020/021/022/026/027/028/029, 8–10 national digits
  ['+64211234567', '+64211234567', 'NZ'],
  ['+6421123456', '+6421123456', 'NZ'],
  ['+642112345678', '+642112345678', 'NZ'],
  ['+64221234567', '+64221234567', 'NZ'],
  ['+64271234567', '+64271234567', 'NZ'],
  ['+642712345678', '+642712345678', 'NZ'],
  ['+64201234567', '+64201234567', 'NZ'],
  ['+64281234567', '+64281234567', 'NZ'],
  ['+64291234567', '+64291234567', 'NZ'],
  ['64211234567', '+64211234567', 'NZ'],
  ['+64 21 123 4567', '+64211234567', 'NZ'],
];

/** Local forms, read in the account's country (`home`). */
const local: Array<[input: string, home: 'AU' | 'NZ', e164: string, country: 'AU' | 'NZ']> = [
  ['0412 345 678', 'AU', '+61412345678', 'AU'],
  ['021 123 4567', 'NZ', '+64211234567', 'NZ'],
  ['022 123 4567', 'NZ', '+64221234567', 'NZ'],
  ['027 123 4567', 'NZ', '+64271234567', 'NZ'],
  ['021-123-456', 'NZ', '+6421123456', 'NZ'],
  ['(021) 123 4567', 'NZ', '+64211234567', 'NZ'],
  ['0212345678', 'NZ', '+64212345678', 'NZ'],
  // The overlap: for a New Zealand account 02 9234 5678 is its mobile +64 29 234 5678 …
  ['(02) 9234 5678', 'NZ', '+64292345678', 'NZ'],
];

/** … and for an Australian account the Sydney landline it is: refused, with what to write for the other reading. */
const reasons: Array<[input: string, home: 'AU' | 'NZ', reason: string]> = [
  ['02 9999 1234', 'AU', 'an Australian landline, not a mobile (for the New Zealand mobile, write +64 29 999 1234)'],
  ['(02) 4960 1234', 'AU', 'an Australian landline, not a mobile'],
  ['03 9876 5432', 'AU', 'an Australian landline, not a mobile'],
  // 02 1123 4567 is a valid Sydney landline too: the other reading is offered, never taken.
  ['021 123 4567', 'AU', 'an Australian landline, not a mobile (for the New Zealand mobile, write +64 21 123 4567)'],
  ['021 1234 5678', 'AU', 'a New Zealand mobile in its local form, and this account reads local numbers as Australian: write it as +64 21 123 45678'],
  ['0412 345 678', 'NZ', 'an Australian mobile in its local form, and this account reads local numbers as New Zealand: write it as +61 412 345 678'],
  ['0491 570 006', 'NZ', 'an Australian mobile in its local form, and this account reads local numbers as New Zealand: write it as +61 491 570 006'],
  ['09 300 1234', 'NZ', 'a New Zealand landline, not a mobile'],
  ['+61 2 9999 1234', 'NZ', 'an Australian landline, not a mobile'],
  ['+64 9 300 1234', 'AU', 'a New Zealand landline, not a mobile'],
  ['+61 1800 123 456', 'AU', 'an Australian freephone number, not a mobile'],
  ['+61412345', 'AU', 'not a valid Australian mobile number'],
  ['0234567890', 'AU', 'an Australian landline, not a mobile'],
  ['0111 222 333', 'AU', 'not a valid Australian mobile number'],
  ['+1 202 555 0100', 'AU', 'not an Australian or New Zealand mobile number'],
  ['hello', 'NZ', 'not an Australian or New Zealand mobile number'],
];

const invalid: Array<[input: string, why: string]> = [
  ['', 'empty'],
  ['   ', 'blank'],
  ['abc', 'letters'],
  ['0412abc678', 'letters inside'],
  ['+61 412 345 67a', 'trailing letter'],
  ['+61412345', 'AU mobile too short'],
  ['+614123456789', 'AU mobile too long'],
  ['041234567', 'local AU too short'],
  ['04123456789', 'local AU too long'],
  ['+61292345678', 'AU landline (Sydney)'],
  ['(02) 4960 1234', 'AU landline (Newcastle): 02 reads as NZ, and 024… is no NZ mobile'],
  ['0249601234', 'AU landline local, unspaced'],
  ['0234567890', 'neither an NZ mobile (023) nor accepted as AU'],
  ['0398765432', 'AU landline (Melbourne)'],
  ['+61398765432', 'AU landline international'],
  ['+611300123456', 'AU 1300 number'],
  ['1300123456', 'AU 1300 local'],
  ['1800123456', 'AU toll-free'],
  ['+611800123456', 'AU toll-free international'],
  ['+611900123456', 'AU premium rate'],
  ['131313', 'AU short code'],
  ['+61500000000', 'AU 05 range'],
  ['0550000000', 'AU 05 local'],
  ['+61445123456', 'unallocated AU mobile range'],
  ['+610412345678', 'trunk 0 after country code'],
  ['+61 (0)412 345 678', 'trunk 0 in brackets after country code'],
  ['0011 61 412 345 678', 'AU international dialling prefix'],
  ['0061412345678', '00 international prefix'],
  ['+6493001234', 'NZ landline'],
  ['093001234', 'NZ landline local'],
  ['+64800123456', 'NZ toll-free'],
  ['+6490000000', 'NZ premium'],
  ['+6420123456', 'NZ 020 too short'],
  ['+6421123456789', 'NZ mobile too long'],
  ['+64211234', 'NZ mobile too short'],
  ['+64241234567', 'NZ 024 is not mobile'],
  ['0441234567', 'NZ-looking 04 local form reads as AU and is no AU mobile'],
  ['+64412345678', 'AU mobile digits under NZ code'],
  ['+61211234567', 'NZ mobile digits under AU code'],
  ['+14155552671', 'US number'],
  ['+447911123456', 'UK mobile'],
  ['412345678', 'national digits without trunk 0'],
  ['211234567', 'NZ national digits without trunk 0'],
  ['++61412345678', 'double plus'],
  ['+61412345678+', 'trailing plus'],
  ['61-412-345-678x1', 'extension'],
  ['+61412345678 ext 2', 'extension words'],
  ['0412345678'.repeat(8), 'absurdly long'],
  ['tel:+61412345678', 'URI scheme'],
  ['04١٢345678', 'Arabic-Indic digits mixed in'],
];

describe('normalisePhone', () => {
  it('has a table of at least 40 cases', () => {
    expect(valid.length + invalid.length).toBeGreaterThanOrEqual(40);
  });

  it.each(valid)('accepts %j as %s (%s), whatever the account\'s country', (input, e164, country) => {
    if (/^\s*[(]?0/.test(input)) return; // local forms: the tables below
    expect(normalisePhone(input, 'AU')).toEqual({ ok: true, e164, country });
    expect(normalisePhone(input, 'NZ')).toEqual({ ok: true, e164, country });
  });

  it.each(valid.filter(([input]) => /^\s*[(]?0/.test(input)))('reads the local form %j as an Australian account\'s %s', (input, e164, country) => {
    expect(normalisePhone(input, 'AU')).toEqual({ ok: true, e164, country });
  });

  it.each(local)('reads the local form %j for a %s account as %s', (input, home, e164, country) => {
    expect(normalisePhone(input, home)).toEqual({ ok: true, e164, country });
  });

  it.each(reasons)('refuses %j for a %s account: %s', (input, home, reason) => {
    expect(normalisePhone(input, home)).toEqual({ ok: false, reason });
  });

  it.each(invalid)('refuses %j (%s) for either country, with a reason', (input) => {
    for (const home of ['AU', 'NZ'] as const) {
      const result = normalisePhone(input, home);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason.length).toBeGreaterThan(10);
    }
  });

  it('is idempotent: normalising an accepted E.164 gives it back', () => {
    for (const [input, home] of [...valid.map(([i]) => [i, 'AU'] as const), ...local.map(([i, h]) => [i, h] as const)]) {
      const first = normalisePhone(input, home);
      if (!first.ok) throw new Error(`expected ${input} to be valid`);
      expect(normalisePhone(first.e164, home === 'AU' ? 'NZ' : 'AU')).toEqual(first);
    }
  });

  it('agrees between E.164, bare international and local forms of any AU 04 number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^4\d{8}$/), (national) => {
        const e164 = normalisePhone(`+61${national}`, 'NZ');
        expect(normalisePhone(`61${national}`, 'NZ')).toEqual(e164);
        if (e164.ok) expect(normalisePhone(`0${national}`, 'AU')).toEqual(e164);
        if (e164.ok) expect(e164).toEqual({ ok: true, e164: `+61${national}`, country: 'AU' });
      }),
    );
  });

  it('agrees between the forms of any NZ 02 number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^2\d{7,9}$/), (national) => {
        const e164 = normalisePhone(`+64${national}`, 'AU');
        expect(normalisePhone(`64${national}`, 'AU')).toEqual(e164);
        if (e164.ok) expect(normalisePhone(`0${national}`, 'NZ')).toEqual(e164);
        if (e164.ok) expect(e164).toEqual({ ok: true, e164: `+64${national}`, country: 'NZ' });
      }),
    );
  });

  it('ignores separators inserted anywhere', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(' ', '-', '.', '(', ')'), { minLength: 11, maxLength: 11 }),
        (seps) => {
          const digits = '0412345678';
          const spaced = [...digits].map((d, i) => `${seps[i] ?? ''}${d}`).join('') + (seps[10] ?? '');
          expect(normalisePhone(spaced, 'AU')).toEqual({ ok: true, e164: '+61412345678', country: 'AU' });
        },
      ),
    );
  });

  it('never throws and only ever returns AU/NZ mobile E.164', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\+?[0-9 ()-]{0,16}$/)), (input) => {
        const result = normalisePhone(input, 'AU');
        if (result.ok) {
          expect(isE164(result.e164)).toBe(true);
          expect(result.e164).toMatch(result.country === 'AU' ? /^\+614\d{8}$/ : /^\+642\d{7,9}$/);
        }
      }),
    );
  });
});

describe('isE164', () => {
  it.each([
    ['+61412345678', true],
    ['+64211234567', true],
    ['+14155552671', true],
    ['+123456789012345', true],
    ['+1234567890123456', false],
    ['61412345678', false],
    ['+0412345678', false],
    ['+61 412 345 678', false],
    ['+', false],
    ['', false],
    ['+6141234567a', false],
  ])('%j → %s', (input, expected) => {
    expect(isE164(input)).toBe(expected);
  });
});

describe('range verdict cache', () => {
  it('agrees with the uncached metadata check for every AU and NZ mobile shape', () => {
    fc.assert(fc.property(
      fc.constantFrom(['61', '4', 'AU'] as const, ['64', '2', 'NZ'] as const),
      fc.integer({ min: 6, max: 10 }),
      fc.nat(),
      ([cc, lead, country], length, seed) => {
        const rest = String(seed).padStart(length, '0').slice(-length + 1);
        const national = `${lead}${rest}`;
        const cached = normalisePhone(`+${cc}${national}`, 'AU').ok;
        expect(cached).toBe(isMobileByMetadata(cc, national, country));
      },
    ), { numRuns: 20_000 });
  });

  it('agrees over every four-digit AU and three-digit NZ range, with other numbers once cached', () => {
    for (let pass = 0; pass < 2; pass += 1) {
      for (let range = 0; range < 10_000; range += 1) {
        const national = `4${String(range).padStart(4, '0')}${String((range * 7 + pass * 5003) % 10_000).padStart(4, '0')}`;
        expect(normalisePhone(`+61${national}`, 'AU').ok).toBe(isMobileByMetadata('61', national, 'AU'));
      }
      for (let range = 0; range < 1_000; range += 1) {
        for (const tail of pass === 0 ? ['12345', '123456', '1234567'] : ['98760', '987601', '9876012']) {
          const national = `2${String(range).padStart(3, '0')}${tail}`;
          expect(normalisePhone(`+64${national}`, 'NZ').ok).toBe(isMobileByMetadata('64', national, 'NZ'));
        }
      }
    }
  });
});
