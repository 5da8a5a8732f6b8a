/**
 * What the audit log keeps of a change: the fields before and after, never a secret. A field whose name says it
 * holds a secret (keys, secrets, passwords, tokens, hashes, codes, credentials) is replaced by REDACTED when it
 * holds text or an object (a flag or a count under such a name is kept); so is any string that looks like one of
 * Tasman's own secrets (an API key, a signing secret), and a URL's user:password part, wherever they sit. Pure:
 * tested beside this file.
 */
export const REDACTED = '[redacted]';

// `key_id`, `prefix` and `scopes` describe a key without being it; `key` alone, `api_key`, `secret` and the like are it.
const SECRET_NAME = /(^key$|api_?key|secret|passw|passphrase|token|hash|credential|recovery_code|^code$|^codes$|sealed|invite_link|reset_link)/i;
// A whole tsm_ API key (its shown prefix is tsm_ and 8 characters, and stays) or a whsec_ signing secret.
const SECRET_VALUE = /(tsm_[0-9A-Za-z]{20,}|whsec_[0-9A-Za-z+/=]{8,})/;
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi;
const MAX_DEPTH = 6;

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    if (SECRET_VALUE.test(value)) return REDACTED;
    return value.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    // A flag or a count under a secret's name (`secret_set: true`, `recovery_codes_left: 8`) says nothing secret.
    const opaque = typeof v === 'string' || (typeof v === 'object' && v !== null);
    out[name] = SECRET_NAME.test(name) && opaque ? REDACTED : redactValue(v, depth + 1);
  }
  return out;
}

/** The fields as the log stores them; null stays null (nothing before a creation, nothing after a removal). */
export function redact(fields: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (fields === null || fields === undefined) return null;
  return redactValue(fields, 0) as Record<string, unknown>;
}

/** Only the fields whose value differs between before and after (both redacted), for an update's entry. */
export function changedFields(
  was: object, now: object,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const before = was as Record<string, unknown>;
  const after = now as Record<string, unknown>;
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (after[name] === undefined) continue;
    if (JSON.stringify(before[name] ?? null) === JSON.stringify(after[name] ?? null)) continue;
    b[name] = before[name] ?? null;
    a[name] = after[name];
  }
  return { before: b, after: a };
}
