import { describe, expect, it } from 'vitest';
import { csvText, parseCsv } from './format.ts';

describe('csvText', () => {
  it('quotes what needs quoting, doubles quotes, ends lines with CRLF, and reads back with parseCsv', () => {
    const rows = [['plain', 1], ['a,b', 2], ['say "hi"\nbye', null]];
    const text = csvText(['a', 'n'], rows);
    expect(text).toBe('a,n\r\nplain,1\r\n"a,b",2\r\n"say ""hi""\nbye",\r\n');
    expect(parseCsv(text)).toEqual([['a', 'n'], ['plain', '1'], ['a,b', '2'], ['say "hi"\nbye', '']]);
  });

  it('defuses formulas but leaves phone numbers and negative numbers alone', () => {
    const text = csvText(['v'], [['=HYPERLINK("x")'], ['@SUM(A1)'], ['+61412345678'], [-5], ['-x'], ['+cmd']]);
    expect(text.split('\r\n').slice(1, -1)).toEqual(['"\'=HYPERLINK(""x"")"', "'@SUM(A1)", '+61412345678', '-5', "'-x", "'+cmd"]);
  });
});
