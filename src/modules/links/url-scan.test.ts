import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findUrls, replaceUrls } from './url-scan.ts';

const urls = (text: string) => findUrls(text).map((u) => u.url);

describe('findUrls', () => {
  it.each([
    ['Sale on now: https://shop.example.com/sale?x=1&y=2 ends Sunday', ['https://shop.example.com/sale?x=1&y=2']],
    ['See https://a.io.', ['https://a.io']],
    ['See https://a.io/x, then http://b.io/y; ok?', ['https://a.io/x', 'http://b.io/y']],
    ['(details at https://a.io/terms)', ['https://a.io/terms']],
    ['https://en.wikipedia.org/wiki/Foo_(bar) is it', ['https://en.wikipedia.org/wiki/Foo_(bar)']],
    ['[https://a.io/x]', ['https://a.io/x']],
    ['HTTPS://A.IO/Path', ['HTTPS://A.IO/Path']],
    ['"https://a.io/q"', ['https://a.io/q']],
    ['<https://a.io/q>', ['https://a.io/q']],
    ['line\nhttps://a.io/1\nhttps://a.io/2', ['https://a.io/1', 'https://a.io/2']],
    ['https://a.io/#frag!', ['https://a.io/#frag']],
    ['http://127.0.0.1:8080/x', ['http://127.0.0.1:8080/x']],
    ['https://münchen.de/straße', ['https://münchen.de/straße']],
    ['Emoji after https://a.io/🎉 yes', ['https://a.io/🎉']],
  ])('%j → %j', (text, expected) => {
    expect(urls(text)).toEqual(expected);
  });

  it.each([
    'no links here',
    'www.example.com and example.com are not links',
    'xhttps://a.io glued to a word',
    'https:// alone',
    'https:///path-only',
    'ftp://a.io/file',
    'mailto:someone@a.io',
    'https://?q=1',
  ])('finds nothing in %j', (text) => {
    expect(findUrls(text)).toEqual([]);
  });

  it('gives offsets that slice back to the URL', () => {
    const text = 'a https://x.io/1 b (https://y.io/2) c https://z.io/3.';
    for (const u of findUrls(text)) expect(text.slice(u.start, u.end)).toBe(u.url);
  });

  it('never finds a URL with whitespace or a trailing full stop, and offsets always slice back', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.string(), fc.webUrl(), fc.constantFrom(' ', '.', '(', ')', '\n'))), (pieces) => {
      const text = pieces.join('');
      let previousEnd = 0;
      for (const u of findUrls(text)) {
        expect(text.slice(u.start, u.end)).toBe(u.url);
        expect(u.url).not.toMatch(/\s/);
        expect(u.url).toMatch(/^https?:\/\//i);
        expect(u.url.endsWith('.')).toBe(false);
        expect(u.start).toBeGreaterThanOrEqual(previousEnd);
        previousEnd = u.end;
      }
    }));
  });

  it('finds a generated web URL standing alone between spaces', () => {
    fc.assert(fc.property(fc.webUrl({ withQueryParameters: true }), (url) => {
      // fast-check may end a URL in punctuation that reads as the sentence's; those are trimmed by design.
      fc.pre(!/[.,;:!?'*)\]}]$/.test(url));
      expect(urls(`go ${url} now`)).toEqual([url]);
    }));
  });
});

describe('replaceUrls', () => {
  it('replaces each URL in order and keeps the rest of the text', () => {
    const text = 'A https://a.io/1, B (https://b.io/2). C';
    expect(replaceUrls(text, (url, i) => `<${i}:${url.length}>`)).toBe('A <0:14>, B (<1:14>). C');
  });

  it('leaves a URL the replacer declines, and returns the very text when nothing is replaced', () => {
    const text = 'keep https://a.io/1 swap https://b.io/2';
    expect(replaceUrls(text, (url) => (url.includes('b.io') ? 'S' : null))).toBe('keep https://a.io/1 swap S');
    expect(replaceUrls(text, () => null)).toBe(text);
    expect(replaceUrls('nothing', () => 'X')).toBe('nothing');
  });

  it('with the identity replacer is the identity', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.string(), fc.webUrl())), (pieces) => {
      const text = pieces.join(' ');
      expect(replaceUrls(text, (url) => url)).toBe(text);
    }));
  });
});
