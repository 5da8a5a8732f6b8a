import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OPTOUT_KEYWORDS, isOptIn, isOptOut } from './optout-keywords.ts';

const optOuts: string[] = [
  'STOP',
  'stop',
  'Stop',
  'sToP',
  'Stop.',
  'STOP!!',
  ' stop please',
  '*STOP*',
  '"STOP"',
  '(stop)',
  'STOP\n',
  '\n\tSTOP',
  'stop, thanks',
  'Stop texting me',
  'STOP ALL',
  'stop all',
  'STOPALL',
  'StopAll',
  'UNSUBSCRIBE',
  'unsubscribe me',
  'Unsubscribe.',
  'CANCEL',
  'cancel',
  'Cancel my booking', // first word rule, as the contract says
  'END',
  'end',
  'End.',
  'QUIT',
  'quit!',
  'OPTOUT',
  'optout',
  'OPT-OUT',
  'Opt-out',
  'opt out',
  'OPT OUT',
  'Opt. Out',
  'opt—out',
  'opt_out',
  'ＳＴＯＰ', // full-width, NFKC
  'ｓｔｏｐ',
  'ＯＰＴ－ＯＵＴ',
  'S\u200BTOP', // zero-width space inside the word
  '\uFEFFSTOP', // byte-order mark
  'S\u00ADTOP', // soft hyphen
  '🛑 STOP',
  '...stop',
  '-- END --',
  'STOP\u00a0please',
  'stop\u3000all', // ideographic space
  'quıt', // dotless i upper-cases to I
  'ſtop', // long s, NFKC to s
  'Stop\'s enough',
];

const notOptOuts: string[] = [
  '',
  '   ',
  '!!!',
  '🛑',
  'stopping by later',
  "Don't stop",
  'Please stop',
  'please STOP',
  'ending',
  'Endless fun',
  'Cancelled already?',
  'quite nice',
  'unsubscribed',
  'STOP2',
  '2STOP',
  '1 STOP',
  'S T O P',
  'S.T.O.P',
  'stahp',
  'STO P',
  'opt in',
  'OPT',
  'opt outside',
  'opt',
  'Hello, STOP',
  'Yes',
  'stopall2',
  'Optional',
  'Quitting',
  'Ende',
];

describe('isOptOut', () => {
  it('has a table of at least 40 cases', () => {
    expect(optOuts.length + notOptOuts.length).toBeGreaterThanOrEqual(40);
  });

  it.each(optOuts)('%j is an opt-out', (text) => {
    expect(isOptOut(text)).toBe(true);
  });

  it.each(notOptOuts)('%j is not an opt-out', (text) => {
    expect(isOptOut(text)).toBe(false);
  });

  it('recognises every keyword in any case, with any punctuation around it and any text after it', () => {
    const punctuation = fc.string({ unit: fc.constantFrom(' ', '.', '!', '?', '*', '"', "'", '-', ',', '(', ')', '\n') });
    fc.assert(
      fc.property(
        fc.constantFrom(...OPTOUT_KEYWORDS, 'OPT-OUT', 'OPT OUT', 'STOP ALL'),
        fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }),
        punctuation,
        punctuation,
        fc.string(),
        (keyword, upper, before, after, rest) => {
          const cased = [...keyword].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join('');
          const separator = after === '' ? ' ' : after;
          expect(isOptOut(`${before}${cased}${separator}${rest}`)).toBe(true);
        },
      ),
    );
  });

  it('does not match a keyword extended by more letters or digits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPTOUT_KEYWORDS),
        fc.stringMatching(/^[a-z0-9]{1,6}$/),
        fc.string(),
        (keyword, suffix, rest) => {
          fc.pre(!OPTOUT_KEYWORDS.includes(`${keyword}${suffix}`.toUpperCase()));
          expect(isOptOut(`${keyword}${suffix} ${rest}`)).toBe(false);
        },
      ),
    );
  });

  it('does not match a keyword that is not the first word', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z]{1,10}$/).filter((w) => !OPTOUT_KEYWORDS.includes(w.toUpperCase()) && w.toUpperCase() !== 'OPT'),
        fc.constantFrom(...OPTOUT_KEYWORDS),
        (first, keyword) => {
          expect(isOptOut(`${first} ${keyword}`)).toBe(false);
        },
      ),
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(typeof isOptOut(text)).toBe('boolean');
      }),
    );
  });
});

describe('isOptIn', () => {
  it.each(['START', 'start', 'Start.', ' *UNSTOP* please', 'Subscribe', 'ＳＴＡＲＴ', 'st\u200bart', '🟢 start again'])('%j re-subscribes', (text) => {
    expect(isOptIn(text)).toBe(true);
    expect(isOptOut(text)).toBe(false);
  });

  it.each(['', 'starting', 'START2', 'Please start', 'STOP', 'restart', 'subscribed', 'UN STOP'])('%j does not', (text) => {
    expect(isOptIn(text)).toBe(false);
  });

  it('never agrees with isOptOut on the same text', () => {
    fc.assert(fc.property(fc.string(), (text) => {
      expect(isOptIn(text) && isOptOut(text)).toBe(false);
    }));
  });
});
