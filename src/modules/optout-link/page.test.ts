import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  generateOptoutCode,
  isOptoutCode,
  maskNumber,
  renderConfirmPage,
  renderDonePage,
  renderNotFoundPage,
} from './page.ts';
import { OPTOUT_CODE_ALPHABET } from './code.ts';

const hostile = `<script>alert("x")</script>&'"`;

describe('escapeHtml', () => {
  it('escapes the five significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('leaves no raw markup characters in any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(escapeHtml(s)).not.toMatch(/[<>"']|&(?!(amp|lt|gt|quot|#39);)/);
      }),
    );
  });
});

describe('maskNumber', () => {
  it.each([
    ['+61412345678', '+61 4•• ••• 678'],
    ['+61 412 345 678', '+61 4•• ••• 678'],
    ['+642112345678', '+64 2••• ••• 678'],
    ['+6421123456', '+64 •• ••• 456'],
    ['+6491234567', '+64 •• ••• 567'],
    ['+15551234567', '+••••• ••• 567'],
    ['0412345678', '•••'],
    ['+614', '•••'],
    ['', '•••'],
    [hostile, '•••'],
  ])('%j → %j', (input, expected) => {
    expect(maskNumber(input)).toBe(expected);
  });

  it('reveals at most the country code, one leading digit and the last three digits', () => {
    fc.assert(
      fc.property(fc.constantFrom('61', '64', '1', '44'), fc.stringMatching(/^[1-9]\d{5,11}$/), (cc, national) => {
        const masked = maskNumber(`+${cc}${national}`);
        const shown = masked.replace(/[^\d]/g, '');
        expect(masked.endsWith(national.slice(-3))).toBe(true);
        expect(shown.length).toBeLessThanOrEqual(cc.length + 1 + 3);
      }),
    );
  });
});

describe('renderConfirmPage', () => {
  const html = renderConfirmPage({ businessName: 'Bondi Surf Co', maskedNumber: '+61 4•• ••• 678', actionPath: '/o/Ab3dE9x' });

  it('is an accessible, script-free page with one post form and one button', () => {
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).not.toMatch(/<script|javascript:|\son\w+=/i);
    expect(html.match(/<form /g)).toHaveLength(1);
    expect(html).toContain('<form method="post" action="/o/Ab3dE9x">');
    expect(html.match(/<button/g)).toHaveLength(1);
    expect(html).toContain('<button type="submit" aria-describedby="what">Stop messages</button>');
    expect(html).toContain('id="what"');
    expect(html).toMatch(/<title>Stop messages from Bondi Surf Co<\/title>/);
    expect(html).toContain('min-height:3rem');
    expect(html).not.toMatch(/<link|src=/);
  });

  it('names the business and the masked number', () => {
    expect(html).toContain('Stop messages from Bondi Surf Co?');
    expect(html).toContain('+61 4•• ••• 678');
  });

  it('escapes every interpolated value', () => {
    const page = renderConfirmPage({ businessName: hostile, maskedNumber: hostile, actionPath: `/o/"><script>` });
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('"><');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;&quot;');
    expect(page).toContain('action="/o/&quot;&gt;&lt;script&gt;"');
  });

  it.each(['javascript:alert(1)', '//evil.example/x', 'https://evil.example/', 'o/abc', ''])(
    'refuses the non-local action path %j',
    (actionPath) => {
      expect(() => renderConfirmPage({ businessName: 'B', maskedNumber: 'n', actionPath })).toThrow(/same-origin/);
    },
  );
});

describe('renderDonePage and renderNotFoundPage', () => {
  it('confirms the opt-out, escaped, without a form', () => {
    const page = renderDonePage({ businessName: hostile, maskedNumber: '+61 4•• ••• 678' });
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('unsubscribed');
    expect(page).toContain('+61 4•• ••• 678');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<form');
  });

  it('explains an invalid link and offers STOP', () => {
    const page = renderNotFoundPage();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('viewport');
    expect(page).toMatch(/isn't valid/);
    expect(page).toContain('STOP');
    expect(page).not.toContain('<form');
  });
});

describe('generateOptoutCode', () => {
  it('is 7 base62 characters', () => {
    for (let i = 0; i < 1000; i++) {
      const code = generateOptoutCode();
      expect(code).toMatch(/^[0-9A-Za-z]{7}$/);
      expect(isOptoutCode(code)).toBe(true);
    }
  });

  it('uses the whole alphabet', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => generateOptoutCode()).join(''));
    expect(seen.size).toBe(62);
    expect(OPTOUT_CODE_ALPHABET).toHaveLength(62);
    expect(new Set(OPTOUT_CODE_ALPHABET).size).toBe(62);
  });

  it('rejects bytes ≥ 248 so there is no modulo bias', () => {
    // 248..255 would map to 0..7 a fifth time; they must be skipped, not folded.
    const bytes = [248, 255, 0, 61, 62, 247, 250, 1, 2, 3, 4, 5];
    let at = 0;
    const random = (n: number) => Buffer.from(Array.from({ length: n }, () => bytes[at++ % bytes.length]!));
    expect(generateOptoutCode(random)).toBe('0z0z123');
  });

  it('asks again when a whole batch is rejected', () => {
    let calls = 0;
    const random = (n: number) => Buffer.alloc(n, calls++ === 0 ? 255 : 10);
    expect(generateOptoutCode(random)).toBe('AAAAAAA');
    expect(calls).toBe(2);
  });

  it('does not repeat', () => {
    const codes = new Set(Array.from({ length: 10_000 }, () => generateOptoutCode()));
    expect(codes.size).toBe(10_000);
  });

  it.each(['', 'abc', 'Ab3dE9xx', 'Ab3dE9-', 'Ab3dE9é', '../../x'])('isOptoutCode refuses %j', (s) => {
    expect(isOptoutCode(s)).toBe(false);
  });
});
