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
