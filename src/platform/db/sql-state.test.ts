import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isTransientConflict, sqlStateOf } from './sql-state.ts';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
// Drizzle wraps the driver's error.
const wrapped = (cause: Error) => Object.assign(new Error('Failed query: select 1'), { cause });

describe('isDatabaseUnavailable', () => {
  it('is true for a session the server ended, a server that cannot take it, a standby, and class 08', () => {
    for (const code of ['57P01', '57P02', '57P03', '25006', '08006', '08001', '08P01']) {
      expect(isDatabaseUnavailable(pgError(code)), code).toBe(true);
      expect(isDatabaseUnavailable(wrapped(pgError(code))), `wrapped ${code}`).toBe(true);
    }
  });

  it('is true for socket errors and the driver\'s words for a connection that ended', () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']) expect(isDatabaseUnavailable(wrapped(pgError(code))), code).toBe(true);
    for (const message of ['Connection terminated unexpectedly', 'Connection terminated', 'Client has encountered a connection error and is not queryable',
      'Client was closed and is not queryable', 'timeout exceeded when trying to connect']) {
      expect(isDatabaseUnavailable(wrapped(new Error(message))), message).toBe(true);
    }
  });

  it('is false for statements that are wrong or conflict: retrying them elsewhere changes nothing', () => {
    for (const code of ['23505', '22P02', '40001', '40P01', '42P01', '57014']) expect(isDatabaseUnavailable(wrapped(pgError(code))), code).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(sqlStateOf(wrapped(pgError('57P01')))).toBe('57P01');
  });
});

describe('isTransientConflict', () => {
  it('is true for a deadlock and a serialization failure (the whole transaction was rolled back), wrapped or not', () => {
    for (const code of ['40P01', '40001']) {
      expect(isTransientConflict(pgError(code)), code).toBe(true);
      expect(isTransientConflict(wrapped(pgError(code))), `wrapped ${code}`).toBe(true);
    }
  });

  it('is false for anything else', () => {
    for (const code of ['23505', '57P01', '40002', '25006']) expect(isTransientConflict(wrapped(pgError(code))), code).toBe(false);
    expect(isTransientConflict(new Error('boom'))).toBe(false);
  });
});
