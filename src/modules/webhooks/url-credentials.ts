// Credentials inside a webhook URL (https://user:pass@host/) are a secret like the signing secret: stored sealed,
// never shown back (GET /webhooks masks them), put back into the URL only when a delivery is sent.

/** The URL without its credentials, and the credentials as given (percent-encoded `user:password`), or null. */
export function splitCredentials(url: string): { url: string; credentials: string | null } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url, credentials: null };
  const credentials = `${parsed.username}:${parsed.password}`;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), credentials };
}

/** The URL to send to: the stored one with its credentials back in. */
export function joinCredentials(url: string, credentials: string | null): string {
  if (credentials === null) return url;
  const parsed = new URL(url);
  const colon = credentials.indexOf(':');
  parsed.username = credentials.slice(0, colon);
  parsed.password = credentials.slice(colon + 1);
  return parsed.toString();
}

/** What GET /webhooks shows: that there are credentials, not what they are. */
export function maskCredentials(url: string, hasCredentials: boolean): string {
  if (!hasCredentials) return url;
  const parsed = new URL(url);
  parsed.username = '****';
  parsed.password = '****';
  return parsed.toString();
}
