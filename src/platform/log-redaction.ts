import { sqlStateOf } from './db/sql-state.ts';

// What an error log may say. A database error carries the statement's values (Drizzle's message ends with
// `params: …`, PostgreSQL's `detail` quotes the conflicting row), and driver or fetch errors quote URLs: message
// bodies, phone numbers, webhook URLs (with any credentials in them) and key hashes would all reach the logs. An
// error is logged as its type, SQLSTATE, constraint and the stack frames, with the message scrubbed.

/** Paths redacted wherever an object is logged whole. */
export const REDACT_PATHS = [
  'req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey', 'api_key', 'key', 'secret',
  'password', 'body', 'text', '*.body', '*.text', '*.secret', '*.key',
  'params', 'query', '*.params', '*.query', 'keyHash', 'key_hash', '*.keyHash', '*.key_hash',
  'to', 'from', 'phone', '*.to', '*.from', '*.phone', 'webhook_url', 'webhookUrl', '*.webhook_url', '*.webhookUrl',
];

const SCRUBS: Array<[RegExp, string]> = [
  [/\n\s*params:[\s\S]*$/, ''],
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, '[url]'],
  [/\btsm_[A-Za-z0-9_-]+/g, '[key]'],
  [/\b[0-9a-f]{32,}\b/gi, '[hash]'],
  [/\+?\d[\d ()-]{6,}\d/g, '[number]'],
  [/(Key \([^)]*\)=)\([^)]*\)/g, '$1([redacted])'],
];

export function scrubText(text: string): string {
  return SCRUBS.reduce((s, [pattern, replacement]) => s.replace(pattern, replacement), text);
}

export interface LoggedError {
  type: string;
  message: string;
  code?: string;
  constraint?: string;
  table?: string;
  stack?: string;
  cause?: LoggedError;
}

/** The pino serializer for `err`: everything an operator needs to find the fault, nothing a customer sent. */
export function redactError(err: unknown, depth = 0): LoggedError {
  if (!(err instanceof Error)) return { type: typeof err, message: scrubText(String(err)) };
  const e = err as Error & { code?: unknown; constraint?: unknown; table?: unknown };
  const out: LoggedError = { type: e.constructor?.name ?? 'Error', message: scrubText(e.message) };
  const code = typeof e.code === 'string' ? e.code : sqlStateOf(e);
  if (code) out.code = code;
  if (typeof e.constraint === 'string') out.constraint = e.constraint;
  if (typeof e.table === 'string') out.table = e.table;
  // The frames only: the stack's first lines repeat the unscrubbed message.
  const frames = e.stack?.split('\n').filter((line) => /^\s+at /.test(line)).map(scrubText);
  if (frames?.length) out.stack = frames.join('\n');
  if (e.cause !== undefined && depth < 3) out.cause = redactError(e.cause, depth + 1);
  return out;
}
