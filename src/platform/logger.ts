import pino from 'pino';

export type Logger = pino.Logger;

// Keys, secrets and message bodies never reach the logs: request logging records method, route and status only,
// and these paths are redacted wherever an object is logged whole.
const redact = [
  'req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey', 'api_key', 'key', 'secret',
  'password', 'body', 'text', '*.body', '*.text', '*.secret', '*.key',
];

/**
 * Logs go to stdout through an asynchronous buffered writer: a synchronous write per line cost a quarter of the
 * API's CPU under load (measured, docs/performance.md). `flush` on shutdown writes out what is buffered.
 */
export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false });
  const logger = pino({ level, redact: { paths: redact, censor: '[redacted]' }, base: { service: 'tasman' } }, destination);
  // A crash must not lose the lines that explain it.
  process.once('exit', () => { try { destination.flushSync(); } catch { /* already closed */ } });
  return logger;
}
