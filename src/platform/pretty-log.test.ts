import { describe, expect, it } from 'vitest';
import { prettyFactory } from 'pino-pretty';
import { prettyOptions } from './pretty-log.ts';

// The human log format (LOG_FORMAT=pretty), as a terminal shows it, colours off.
const pretty = prettyFactory({ ...prettyOptions(), colorize: false });
const lines = (entry: Record<string, unknown>) => pretty({ level: 30, time: Date.UTC(2026, 0, 1), service: 'tasman', pid: 1, hostname: 'h', ...entry }).trimEnd().split('\n');

describe('the pretty log format', () => {
  it('prints a request as one line with its method, path, status, time, address and id', () => {
    const printed = lines({ msg: 'request', reqId: 'r-1', method: 'POST', url: '/send', status: 200, ip: '127.0.0.1', ms: 12 });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/ INFO: POST \/send 200 12 ms 127\.0\.0\.1 req=r-1$/);
    const tool = lines({ msg: 'request', reqId: 'r-2', method: 'POST', url: '/mcp', status: 200, ip: '::1', ms: 3, tool: 'send_sms', tool_error: 'insufficient_credits' });
    expect(tool).toEqual([expect.stringMatching(/ INFO: POST \/mcp 200 3 ms ::1 tool=send_sms \(insufficient_credits\) req=r-2$/)]);
  });

  it('prints every other entry with its fields, as before', () => {
    const printed = lines({ msg: 'tasman started', url: 'http://127.0.0.1:3000', status: 'x', roles: { api: true } });
    expect(printed[0]).toMatch(/ INFO: tasman started$/);
    expect(printed.slice(1).map((l) => l.trim())).toEqual(['url: "http://127.0.0.1:3000"', 'status: "x"', 'roles: {', '"api": true', '}']);
  });
});
