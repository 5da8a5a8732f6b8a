import pino from 'pino';
import { REDACT_PATHS, redactError } from './log-redaction.ts';

export type Logger = pino.Logger;

/**
 * Logs go to stdout through an asynchronous buffered writer: a synchronous write per line cost a quarter of the
 * API's CPU under load (measured, docs/performance.md). `flush` on shutdown writes out what is buffered.
 */
export function createLogger(
  level: string, destination: pino.DestinationStream & { flushSync?(): void } = pino.destination({ dest: 1, sync: false }),
): Logger {
  // Keys, secrets, message bodies, phone numbers, webhook URLs and key hashes never reach the logs: request logging
  // records method, route and status only, these paths are redacted wherever an object is logged whole, and
  // errors are logged through redactError (log-redaction.ts).
  const logger = pino({
    level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'tasman' },
    serializers: { err: redactError, error: redactError },
  }, destination);
  // A crash must not lose the lines that explain it.
  process.once('exit', () => { try { destination.flushSync?.(); } catch { /* already closed */ } });
  return logger;
}
