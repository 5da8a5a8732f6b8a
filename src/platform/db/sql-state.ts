// PostgreSQL SQLSTATE of a failed query. Drizzle wraps the driver's error (DrizzleQueryError), so the code may
// sit on `.cause`; both pg and PGlite errors carry it as `code`.

export function sqlStateOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Class 22, data exception: the values themselves cannot be stored (a NUL in text, an invalid byte sequence, a
 * number out of range). Trying again with the same values fails the same way.
 */
export const isDataException = (err: unknown): boolean => sqlStateOf(err)?.startsWith('22') ?? false;

/**
 * Class 40, transaction rollback: a deadlock (40P01) or a serialization failure (40001). PostgreSQL rolled the
 * whole transaction back, so nothing of it was committed, and the same transaction may succeed if run again.
 */
export const isTransientConflict = (err: unknown): boolean => {
  const code = sqlStateOf(err);
  return code === '40P01' || code === '40001';
};

// Server states that end a session or refuse writes on it: admin shutdown (57P01, what pg_terminate_backend, a
// failover or a pooler restart sends), crash shutdown (57P02), cannot connect now (57P03), and a server that is
// (now) a standby (25006, read-only transaction).
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '25006']);
// Socket errors, and the driver's own words for a connection that ended or was never made.
const UNAVAILABLE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'ENOENT', 'NO_WRITER']);
const UNAVAILABLE_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end)/;

/**
 * Whether a failure means the database (or the connection to it) is unavailable rather than the statement being
 * wrong: the statement may succeed if tried again on another connection, and the API answers 503, not 500.
 * Class 08 is connection exception. Looks through `.cause` (DrizzleQueryError) like sqlStateOf.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}
