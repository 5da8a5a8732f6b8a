import { describe, expect, it } from 'vitest';
import http from 'node:http';
import type net from 'node:net';
import { once } from 'node:events';
import { bindRefusal, describeLinkFailure, recogniseForeignPeer } from './link-failure.ts';
import { createSmppClient } from './client.ts';
import { LinkError, MalformedPduError } from './errors.ts';
import { Status } from './pdu-types.ts';
import { createFrameSplitter } from './codec.ts';

describe('the peer recognised from its first octets', () => {
  it.each([
    ['HTTP/1.1 400 Bad Request\r\n', 'the peer answered HTTP, not SMPP'],
    ['SSH-2.0-OpenSSH_9.2\r\n', 'the peer is an SSH server, not an SMSC'],
    ['220 mail.example ESMTP\r\n', 'the peer answered a mail-server greeting, not SMPP'],
  ])('%j', (text, words) => {
    expect(recogniseForeignPeer(Buffer.from(text, 'latin1'))).toBe(words);
    // The splitter names it instead of "absurd command_length 1213486160".
    expect(() => createFrameSplitter().push(Buffer.from(text, 'latin1'))).toThrow(words);
  });

  it('names a TLS answer, and leaves garbage unnamed', () => {
    expect(recogniseForeignPeer(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46]))).toMatch(/TLS/);
    expect(recogniseForeignPeer(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toBeNull();
    expect(() => createFrameSplitter().push(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toThrow('absurd command_length 4294967295');
  });
});

describe('link failures in words', () => {
  it('names socket errors, lost connections by their cause, and refused binds', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(describeLinkFailure(refused)).toBe('connection refused (nothing listens on that port)');
    const http = new MalformedPduError('the peer answered HTTP, not SMPP', true);
    expect(describeLinkFailure(new LinkError('connection lost: x', 'connection_lost', http))).toBe('the peer answered HTTP, not SMPP');
    expect(describeLinkFailure(new LinkError('socket closed', 'connection_lost'))).toBe('the SMSC closed the connection');
    expect(bindRefusal(Status.ESME_RINVPASWD)).toBe('bind refused: wrong password (ESME_RINVPASWD)');
  });
});

describe('reconnect log', () => {
  it('against a port that answers HTTP: one warning per try with the cause in words and the back-off, no stack', async () => {
    const server = http.createServer((_req, res) => res.end('hello'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as net.AddressInfo).port;
    const lines: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];
    const record = (level: string) => (obj: object, msg?: string) => { lines.push({ level, obj: obj as Record<string, unknown>, msg }); };
    let tries = 0;
    let wake: () => void = () => {};
    const logger = {
      debug: record('debug'), info: record('info'), error: record('error'),
      warn: (obj: object, msg?: string) => { record('warn')(obj, msg); tries++; if (tries >= 2) wake(); },
    };
    const client = createSmppClient({
      host: '127.0.0.1', port, systemId: 'x', password: 'y', window: 1, tps: 0, logger,
      reconnect: { initialMs: 20, maxMs: 40 }, onDeliver: async () => {},
    });
    const twoTries = new Promise<void>((resolve) => { wake = resolve; });
    await client.start(0);
    await twoTries;
    await client.stop(0);
    server.close();
    const warnings = lines.filter((l) => l.level === 'warn' || l.level === 'error');
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    for (const w of warnings) {
      expect(w.msg).toMatch(/^smpp connect failed: the peer answered HTTP, not SMPP; reconnecting in \d+\.\d s$/);
      expect(w.obj).toMatchObject({ cause: 'the peer answered HTTP, not SMPP', retryInMs: expect.any(Number) });
      expect(w.obj).not.toHaveProperty('err');
    }
    expect(client.state().lastError).toBe('the peer answered HTTP, not SMPP');
  });
});
