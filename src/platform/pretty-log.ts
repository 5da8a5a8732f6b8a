import type { PrettyOptions } from 'pino-pretty';

/** The request line's fields (app.ts), printed in its message instead of one indented line each. */
const REQUEST_FIELDS = ['reqId', 'method', 'url', 'status', 'ms', 'ip', 'tool', 'tool_error'] as const;

type Entry = Record<string, unknown>;

const isRequest = (log: Entry) => log.msg === 'request' && typeof log.method === 'string';

/** `POST /send 200 12 ms 127.0.0.1 tool=send_sms req=01a2…`: what a person scanning a terminal looks for, in one line. */
function requestMessage(log: Entry): string {
  const tool = log.tool ? ` tool=${String(log.tool)}${log.tool_error ? ` (${String(log.tool_error)})` : ''}` : '';
  return `${String(log.method)} ${String(log.url)} ${String(log.status)} ${String(log.ms)} ms ${String(log.ip)}${tool} req=${String(log.reqId)}`;
}

/**
 * pino-pretty's options for LOG_FORMAT=pretty. Every field of a line gets a line of its own there, which made each
 * request seven lines (a health-check poller filled the terminal); a request is one line here, and every other
 * entry prints as before. The JSON format is untouched: it keeps each field for machines.
 */
export function prettyOptions(): PrettyOptions {
  // A custom prettifier that returns undefined leaves its key out; otherwise it prints what pino-pretty would.
  const hideOnRequests = (value: unknown, _key: string, log: Entry) => (isRequest(log) ? undefined : JSON.stringify(value, null, 2));
  return {
    colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service', sync: true,
    messageFormat: (log, messageKey) => (isRequest(log) ? requestMessage(log) : String(log[messageKey] ?? '')),
    customPrettifiers: Object.fromEntries(REQUEST_FIELDS.map((k) => [k, hideOnRequests])) as PrettyOptions['customPrettifiers'],
  };
}
