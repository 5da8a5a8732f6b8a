/**
 * Finding the web addresses in a message so they can be replaced by short links. Pure.
 *
 * What counts as a URL, deliberately narrow, because a wrong guess changes what the recipient reads:
 * - it starts with `http://` or `https://` (any case), not glued to a preceding letter or digit (`xhttp://` is
 *   not one), and runs to the next whitespace or `<`, `>`, `"`, backtick;
 * - trailing sentence punctuation is not part of it (`.,;:!?'*`), and neither is a closing `)`, `]` or `}`
 *   with no opening partner inside the URL (`(see https://x.io/a)` keeps its bracket; a Wikipedia-style
 *   `https://x.io/Foo_(bar)` keeps the bracket that belongs to it);
 * - the WHATWG URL parser must accept it with a host (`https://` alone, `https:///x` are left as written).
 * Nothing else is touched: bare `www.example.com` or `example.com` are not links here (they would need a guess
 * at the scheme, and many phones do not linkify them either).
 */

export interface FoundUrl {
  /** UTF-16 offsets in the text: text.slice(start, end) === url */
  start: number;
  end: number;
  url: string;
}

const CANDIDATE = /(?<![0-9A-Za-z])https?:\/\/[^\s<>"`]+/giu;
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '*']);
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}

/** The candidate without the punctuation that belongs to the sentence around it. */
function trimTail(candidate: string): string {
  let url = candidate;
  for (;;) {
    const last = url.at(-1);
    if (last === undefined) return url;
    if (TRAILING.has(last)) { url = url.slice(0, -1); continue; }
    const opener = CLOSERS[last];
    if (opener !== undefined && count(url, last) > count(url, opener)) { url = url.slice(0, -1); continue; }
    return url;
  }
}

function hasHost(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '' && /^https?:\/\/[^/?#\\]/i.test(url);
  } catch {
    return false;
  }
}

/** Every URL in the text, in order, none overlapping. */
export function findUrls(text: string): FoundUrl[] {
  const found: FoundUrl[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const url = trimTail(match[0]);
    if (!hasHost(url)) continue;
    found.push({ start: match.index, end: match.index + url.length, url });
  }
  return found;
}

/**
 * The text with each URL that `replace` answers a string for replaced by that string; `null` leaves the URL as
 * written. `replace` is called once per URL, in order.
 */
export function replaceUrls(text: string, replace: (url: string, index: number) => string | null): string {
  let out = '';
  let at = 0;
  let index = 0;
  for (const u of findUrls(text)) {
    const replacement = replace(u.url, index++);
    if (replacement === null) continue;
    out += text.slice(at, u.start) + replacement;
    at = u.end;
  }
  return at === 0 ? text : out + text.slice(at);
}
