// Content-Security-Policy values, pure so that page renderers can use them (security-headers.ts sends them).

type Directives = Record<string, readonly string[]>;

/** A Content-Security-Policy header value from its directives, in the order given. */
export function csp(directives: Directives): string {
  return Object.entries(directives).map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/**
 * What every answer that is not a page carries (JSON, text, assets, redirects): nothing may run, load or frame
 * it. A browser never renders these, so the policy only matters when one is opened directly or sniffed as HTML.
 */
export const DENY_ALL = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"], 'base-uri': ["'none'"], 'form-action': ["'none'"] };

/**
 * A page of this service's own (the dashboard, built by Vite; the API reference): its scripts, styles and the API
 * on this origin only. React's style props
 * go through the CSSOM, which style-src does not govern, so styles need no 'unsafe-inline' either.
 */
const OWN_PAGE = {
  'default-src': ["'self'"], 'script-src': ["'self'"], 'style-src': ["'self'"], 'img-src': ["'self'"],
  'connect-src': ["'self'"], 'object-src': ["'none'"], 'frame-ancestors': ["'none'"], 'base-uri': ["'none'"], 'form-action': ["'self'"],
};

export const DASHBOARD_CSP = csp(OWN_PAGE);

/**
 * The API reference at /docs (Swagger UI from @fastify/swagger-ui): its page loads its bundle, preset and
 * initializer as files (no inline script), reads /docs/json and sends "Try it out" requests to this origin; its
 * stylesheet draws its icons from data: URLs. Its
 * one inline stylesheet, inside the logo SVG of its top bar (`.logo_small_svg__cls-2{fill:#fff}…`), is allowed by
 * its hash; a Swagger UI upgrade that changes it shows as a violation in test/e2e/security-headers-browser.test.ts.
 */
export const DOCS_CSP = csp({ ...OWN_PAGE, 'img-src': ["'self'", 'data:'], 'style-src': ["'self'", "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"] });
