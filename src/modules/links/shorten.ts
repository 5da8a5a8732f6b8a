import { randomBytes } from 'node:crypto';
import { randomBase62 } from '../../common/random-code.ts';
import { replaceUrls } from './url-scan.ts';

/**
 * Short-link codes: 8 base62 characters (62^8 ≈ 2.2e14). They share the path after OPTOUT_LINK_BASE with the
 * 7-character opt-out codes, so the length alone tells the two apart (one route, no second base to configure).
 * The target URL may carry a customer's own token, so a code is as unguessable as an opt-out code and longer.
 */
export const LINK_CODE_LENGTH = 8;

export function generateLinkCode(random: (n: number) => Buffer = randomBytes): string {
  return randomBase62(LINK_CODE_LENGTH, random);
}

/** Cheap shape check: the redirect answers 404 without a query for anything else. */
export function isLinkCode(value: string): boolean {
  return /^[0-9A-Za-z]{8}$/.test(value);
}

/** One URL of a message, replaced by `${base}/${code}`; written beside the message. */
export interface NewLink {
  code: string;
  url: string;
  /** its place among the message's links, from 0 */
  position: number;
}

/**
 * Replaces every http(s) URL of a finished body (merge fields and {{OptOutLink}} already filled in) by a short
 * link on `base`, one fresh code per URL and recipient. A URL already on the base (the opt-out link, or a short
 * link pasted into the text) is left alone. The caller counts parts on the returned body.
 */
export function shortenUrls(body: string, base: string, random?: (n: number) => Buffer): { body: string; links: NewLink[] } {
  const links: NewLink[] = [];
  const ours = `${base}/`;
  const shortened = replaceUrls(body, (url) => {
    if (url.startsWith(ours)) return null;
    const code = generateLinkCode(random);
    links.push({ code, url, position: links.length });
    return `${ours}${code}`;
  });
  return { body: shortened, links };
}

/**
 * The body as sent: with tracking, its URLs shortened and the links to write; without tracking (or without any
 * URL), the body untouched and null, so nothing else is written.
 */
export function trackedBody(body: string, base: string, track: boolean): { body: string; links: NewLink[] | null } {
  if (!track) return { body, links: null };
  const shortened = shortenUrls(body, base);
  return shortened.links.length > 0 ? shortened : { body, links: null };
}
