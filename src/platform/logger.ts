import pino from 'pino';

export type Logger = pino.Logger;

// Keys, secrets and message bodies never reach the logs: request logging records method, route and status only,
// and these paths are redacted wherever an object is logged whole.
const redact = [
  'req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey', 'api_key', 'key', 'secret',
  'password', 'body', 'text', '*.body', '*.text', '*.secret', '*.key',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: redact, censor: '[redacted]' }, base: { service: 'tasman' } });
}
