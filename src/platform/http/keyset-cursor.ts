/**
 * Keyset cursors for lists that run newest first on (created_at, key): GET /messages (key = message id) and
 * GET /optouts (key = number). A cursor is the last row's position, so the next page starts strictly after it
 * whatever was inserted meanwhile, and costs one index range instead of an OFFSET that reads every skipped row.
 * `created_at` travels at microsecond precision (PostgreSQL's), as text: a JavaScript Date would round it to
 * milliseconds and could skip or repeat rows that share a millisecond (every message of one batch shares its
 * transaction's timestamp).
 *
 * Opaque to clients (base64url), but not secret: it carries nothing the list did not show.
 */
export interface ListPosition {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ` */
  createdAt: string;
  /** the tie-breaker: a uuid or an E.164 number */
  id: string;
}

const CREATED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const UUID_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const E164_KEY = /^\+\d{6,15}$/;

/** The SQL expression giving a timestamp column's position text (for the cursor of the row's page). */
export const POSITION_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"';

export function encodeCursor(p: ListPosition): string {
  return Buffer.from(`${p.createdAt}|${p.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or null when it is not one this service made for keys shaped like `key`. */
export function decodeCursor(cursor: string, key: RegExp = UUID_KEY): ListPosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const [createdAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !createdAt || !id || !CREATED.test(createdAt) || !key.test(id)) return null;
  if (Number.isNaN(Date.parse(createdAt))) return null;
  return { createdAt, id };
}
