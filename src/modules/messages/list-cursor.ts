/**
 * The keyset cursor of GET /messages. The list runs newest first on (created_at, id); a cursor is the last row's
 * position, so the next page starts strictly after it whatever was inserted meanwhile, and costs one index range
 * instead of an OFFSET that reads every skipped row. `created_at` travels at microsecond precision (PostgreSQL's),
 * as text: a JavaScript Date would round it to milliseconds and could skip or repeat rows that share a millisecond
 * (every message of one batch shares its transaction's timestamp).
 *
 * Opaque to clients (base64url), but not secret: it carries nothing the list did not show.
 */
export interface ListPosition {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ` */
  createdAt: string;
  id: string;
}

const CREATED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeCursor(p: ListPosition): string {
  return Buffer.from(`${p.createdAt}|${p.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or null when it is not one this service made. */
export function decodeCursor(cursor: string): ListPosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const [createdAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !createdAt || !id || !CREATED.test(createdAt) || !ID.test(id)) return null;
  if (Number.isNaN(Date.parse(createdAt))) return null;
  return { createdAt, id };
}
