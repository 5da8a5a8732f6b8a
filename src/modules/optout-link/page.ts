/**
 * HTML for the one-tap opt-out page (docs/api-contract.md, {{OptOutLink}}). Pure rendering: the route decides status
 * codes and records the opt-out only on POST, because link previewers fetch the GET.
 *
 * The pages work without JavaScript, on small screens, and with assistive technology: a lang attribute, a
 * viewport meta, one real <form method="post"> with one large <button>, text contrast well above WCAG AA, and
 * a visible focus ring. Every interpolated value is HTML-escaped.
 */

import { createHash } from 'node:crypto';
import { csp } from '../../platform/http/content-security-policy.ts';

export { generateOptoutCode, isOptoutCode } from './code.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const BULLET = '•';

/**
 * Masks an E.164 number for display: the country code, the first national digit (for AU/NZ the mobile prefix)
 * and the last three digits, so the reader recognises their number without the page revealing it to whoever
 * finds the link. `+61412345678` → `+61 4•• ••• 678`; `+642112345678` → `+64 2••• ••• 678`.
 * Other country codes are not parsed (Tasman serves AU and NZ): all but the last three digits are masked.
 * Anything that is not E.164 masks to `•••` rather than echoing input.
 */
export function maskNumber(e164: string): string {
  const compact = e164.replace(/[\s()-]/g, '');
  if (!/^\+\d{6,15}$/.test(compact)) return BULLET.repeat(3);
  const digits = compact.slice(1);
  const cc = /^6[14]/.test(digits) ? digits.slice(0, 2) : '';
  const national = digits.slice(cc.length);
  const hidden = national.length - 3;
  // The leading digit is shown only for AU/NZ numbers long enough that at least five digits stay hidden.
  const lead = cc && hidden >= 6 ? national[0]! : '';
  const head = lead + BULLET.repeat(hidden - lead.length);
  const groups = head.length > 3 ? [head.slice(0, -3), head.slice(-3)] : [head];
  return `+${cc}${cc ? ' ' : ''}${groups.join(' ')} ${national.slice(-3)}`;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:1.125rem;line-height:1.5;
color:#1a1a1a;background:#f4f4f5}
main{max-width:28rem;margin:0 auto;padding:2rem 1.25rem}
.card{background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
p{margin:0 0 1rem}
.number{font-weight:600;white-space:nowrap}
button{display:block;width:100%;min-height:3rem;padding:.75rem 1rem;font:inherit;font-weight:600;color:#fff;
background:#b3261e;border:0;border-radius:8px;cursor:pointer}
button:hover{background:#8c1d18}
button:focus-visible{outline:3px solid #1a1a1a;outline-offset:3px}
.note{font-size:1rem;color:#3f3f46;margin:1rem 0 0}
@media (prefers-color-scheme:dark){body{color:#f4f4f5;background:#18181b}.card{background:#27272a}
.note{color:#d4d4d8}button:focus-visible{outline-color:#f4f4f5}}
`.trim();

/**
 * The pages' policy: their one inline stylesheet, allowed by its hash, and a form posting back here; no script at
 * all. Sent as a header and repeated in a meta tag, so a saved copy keeps it.
 */
export const PAGE_CSP = csp({
  'default-src': ["'none'"], 'style-src': [`'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`],
  'form-action': ["'self'"], 'frame-ancestors': ["'none'"], 'base-uri': ["'none'"],
});
// A meta tag cannot carry frame-ancestors (browsers ignore it there and warn).
const META_CSP = PAGE_CSP.replace("; frame-ancestors 'none'", '');

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="${META_CSP}">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main><div class="card">
${content}
</div></main>
</body>
</html>
`;
}

export type ConfirmPageInput = {
  businessName: string;
  /** Already masked with maskNumber. */
  maskedNumber: string;
  /** Where the form posts, a same-origin path such as `/o/Ab3dE9x`. */
  actionPath: string;
};

/**
 * The GET page: names the business and the masked number, and asks for one tap to confirm. No CSRF token: the
 * unguessable code in the path is the only authority, and a forged POST could only do what the link's holder
 * can already do with one tap.
 */
export function renderConfirmPage(input: ConfirmPageInput): string {
  // Only same-origin paths: a value like "javascript:" or "//evil.example" would survive HTML escaping.
  if (!input.actionPath.startsWith('/') || input.actionPath.startsWith('//')) {
    throw new Error('actionPath must be a same-origin absolute path');
  }
  const business = escapeHtml(input.businessName);
  const number = escapeHtml(input.maskedNumber);
  return layout(
    `Stop messages from ${input.businessName}`,
    `<h1>Stop messages from ${business}?</h1>
<p id="what">${business} will stop sending text messages to <span class="number">${number}</span>.</p>
<form method="post" action="${escapeHtml(input.actionPath)}">
<button type="submit" aria-describedby="what">Stop messages</button>
</form>
<p class="note">Nothing changes until you tap the button.</p>`,
  );
}

/** Shown after the POST recorded the opt-out (and on a repeated POST: the opt-out is idempotent). */
export function renderDonePage(input: { businessName: string; maskedNumber: string }): string {
  const business = escapeHtml(input.businessName);
  return layout(
    'You have been unsubscribed',
    `<h1 role="status">You're unsubscribed</h1>
<p>${business} will no longer send text messages to <span class="number">${escapeHtml(input.maskedNumber)}</span>.</p>
<p class="note">You can close this page.</p>`,
  );
}

/** For an unknown or malformed code; the route sends it with status 404. */
export function renderNotFoundPage(): string {
  return layout(
    'Link not found',
    `<h1>This link isn't valid</h1>
<p>Check that the whole link was copied from the message.</p>
<p class="note">You can also stop messages by replying STOP to the text message.</p>`,
  );
}

/** Sent with 429 when one client address asks too often. */
export function renderBusyPage(): string {
  return layout(
    'Please wait a moment',
    `<h1>Please wait a moment</h1>
<p>There have been too many requests from your connection. Try again in a few seconds.</p>`,
  );
}

/** Sent when something went wrong on our side (or the request could not be read). */
export function renderErrorPage(): string {
  return layout(
    'Something went wrong',
    `<h1>Something went wrong</h1>
<p>Your request could not be completed. Please try again shortly.</p>
<p class="note">You can also stop messages by replying STOP to the text message.</p>`,
  );
}
