import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { once } from 'node:events';
import { createSession, type Session, type SessionOptions } from './session.ts';
import { createFrameSplitter, decodePdu, encodePdu, responseTo } from './codec.ts';
import { LinkError } from './errors.ts';
import type { Pdu } from './pdu-types.ts';

/** A session on one end of a loopback TCP pair; the test drives the raw other end. */
async function pair(opts: Partial<SessionOptions> = {}): Promise<{ session: Session; socket: net.Socket; peer: net.Socket; received: Pdu[]; next(): Promise<Pdu> }> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  const accepted = once(server, 'connection');
  const socket = net.connect(port, '127.0.0.1');
  const [peer] = (await accepted) as [net.Socket];
  server.close();
  await once(socket, 'connect').catch(() => {});
  const received: Pdu[] = [];
  const waiters: Array<(p: Pdu) => void> = [];
  const splitter = createFrameSplitter();
  peer.on('data', (chunk: Buffer) => {
    for (const f of splitter.push(chunk)) {
      const pdu = decodePdu(f);
      const w = waiters.shift();
      if (w) w(pdu); else received.push(pdu);
    }
  });
  const session = createSession({
    socket, window: 2, responseTimeoutMs: 5_000, enquireLinkIntervalMs: 0,
    onRequest: async (pdu) => responseTo(pdu, 0), ...opts,
  });
  cleanups.push(() => { session.destroy(new Error('test over')); peer.destroy(); });
  const next = (): Promise<Pdu> => {
    const ready = received.shift();
    return ready ? Promise.resolve(ready) : new Promise((resolve) => waiters.push(resolve));
  };
  return { session, socket, peer, received, next };
}

/** Counts the socket's writes to the kernel: each call of its stream's _write or _writev is one system call. */
function countWrites(socket: net.Socket): { calls: number } {
  const count = { calls: 0 };
  const write = socket._write.bind(socket);
  const writev = socket._writev!.bind(socket);
  socket._write = (chunk, encoding, cb) => { count.calls += 1; write(chunk, encoding, cb); };
  socket._writev = (chunks, cb) => { count.calls += 1; writev(chunks, cb); };
  return count;
}

let cleanups: Array<() => void> = [];
afterEach(() => { for (const c of cleanups) c(); cleanups = []; });

const enquire: Pdu = { command: 'enquire_link', sequence: 0, status: 0, tlvs: {} };

describe('session', () => {
  it('wraps sequence numbers from 0x7FFFFFFF to 1', async () => {
    const { session, peer, next } = await pair({ initialSequence: 0x7ffffffe, window: 10 });
    const replies = [session.request(enquire), session.request(enquire), session.request(enquire)];
    const seqs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const req = await next();
      seqs.push(req.sequence);
      peer.write(encodePdu(responseTo(req, 0)));
    }
    expect(seqs).toEqual([0x7fffffff, 1, 2]);
    expect((await Promise.all(replies)).map((r) => r.sequence)).toEqual(seqs);
  });

  it('times out a request without a response and frees its window slot', async () => {
    const { session, next } = await pair({ window: 1, responseTimeoutMs: 100 });
    const first = session.request(enquire);
    const second = session.request(enquire);
    await expect(first).rejects.toMatchObject({ code: 'response_timeout' });
    await next();
    const req = await next(); // the second one was only written once the first timed out
    expect(req.command).toBe('enquire_link');
    await expect(second).rejects.toBeInstanceOf(LinkError);
  });

  it('answers enquire_link and unknown commands, and closes after answering unbind', async () => {
    const { session, peer, next } = await pair();
    peer.write(encodePdu({ ...enquire, sequence: 9 }));
    expect(await next()).toMatchObject({ command: 'enquire_link_resp', sequence: 9 });
    peer.write(Buffer.from('00000010' + '00000103' + '00000000' + '0000000a', 'hex'));
    expect(await next()).toMatchObject({ command: 'generic_nack', sequence: 10, status: 3 });
    peer.write(encodePdu({ command: 'unbind', sequence: 11, status: 0, tlvs: {} }));
    expect(await next()).toMatchObject({ command: 'unbind_resp', sequence: 11 });
    expect((await session.closed).message).toBe('peer unbound');
  });

  it('answers a request only when its handler settles, with ESME_RX_T_APPN when it fails', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    let calls = 0;
    const { peer, next, received } = await pair({
      onRequest: async (pdu) => {
        if (++calls === 1) { await gate; return responseTo(pdu, 0); }
        throw new Error('db down');
      },
    });
    const deliver = Buffer.from('00000021' + '00000005' + '00000000' + '00000001' + '00'.repeat(17), 'hex');
    peer.write(deliver);
    const second = Buffer.from(deliver); second.writeUInt32BE(2, 12);
    peer.write(second);
    expect(await next()).toMatchObject({ command: 'deliver_sm_resp', sequence: 2, status: 0x64 });
    expect(received).toHaveLength(0);
    release();
    expect(await next()).toMatchObject({ command: 'deliver_sm_resp', sequence: 1, status: 0 });
  });

  it('rejects everything in flight when the connection drops', async () => {
    const { session, peer, next } = await pair();
    const a = session.request(enquire);
    const b = session.request(enquire);
    const c = session.request(enquire); // waiting for a window slot
    await next();
    peer.destroy();
    for (const p of [a, b, c]) await expect(p).rejects.toMatchObject({ code: 'connection_lost' });
    await expect(session.request(enquire)).rejects.toMatchObject({ code: 'closed' });
  });

  it('logs an undecodable PDU by its header and length only, never its body (numbers, text)', async () => {
    const logged: object[] = [];
    const keep = (obj: object) => { logged.push(obj); };
    const { peer, next } = await pair({ logger: { debug: keep, info: keep, warn: keep, error: keep } });
    // deliver_sm whose body ends inside source_addr: framing sound, body undecodable, holding a phone number.
    const body = Buffer.from('\u0000\u0001\u000161499123456', 'latin1');
    const head = Buffer.alloc(16);
    head.writeUInt32BE(16 + body.length, 0);
    head.writeUInt32BE(0x00000005, 4);
    head.writeUInt32BE(7, 12);
    peer.write(Buffer.concat([head, body]));
    expect(await next()).toMatchObject({ command: 'deliver_sm_resp', sequence: 7, status: 0x65 });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ commandId: 5, commandStatus: 0, sequence: 7, length: 16 + body.length });
    const text = JSON.stringify(logged[0], (_k, v: unknown) => (v instanceof Error ? { message: v.message, name: v.name } : v));
    expect(text).not.toContain('61499123456');
    expect(text).not.toContain(Buffer.from('61499123456').toString('hex'));
  });

  it('closes with generic_nack on an absurd command_length', async () => {
    const { session, peer, next } = await pair();
    peer.write(Buffer.from('ffffffff00000004', 'hex'));
    expect(await next()).toMatchObject({ command: 'generic_nack', status: 2 });
    expect((await session.closed).name).toBe('MalformedPduError');
  });

  it('sends the PDUs written in one event-loop turn in one write, in order', async () => {
    const { session, socket, peer, next } = await pair({ window: 10 });
    const writes = countWrites(socket);
    const replies = Array.from({ length: 5 }, () => session.request(enquire));
    const seqs: number[] = [];
    for (let i = 0; i < 5; i++) seqs.push((await next()).sequence);
    expect(seqs).toEqual([1, 2, 3, 4, 5]);
    expect(writes.calls).toBe(1);
    // The answers to requests that arrive together (one read) leave together too.
    peer.write(Buffer.concat([
      ...[21, 22, 23].map((seq) => encodePdu({ ...enquire, sequence: seq })),
      ...seqs.map((seq) => encodePdu(responseTo({ ...enquire, sequence: seq }, 0))),
    ]));
    await Promise.all(replies);
    const answers = [await next(), await next(), await next()];
    expect(answers.map((a) => [a.command, a.sequence])).toEqual([['enquire_link_resp', 21], ['enquire_link_resp', 22], ['enquire_link_resp', 23]]);
    expect(writes.calls).toBe(2);
  });

  it('destroy sends what was written before it in the same turn: a request it rejects may still reach the peer', async () => {
    const { session, next } = await pair();
    const request = session.request(enquire, { bypassWindow: true }); // written at once (corked, not yet sent)
    session.destroy(new Error('going away'));
    await expect(request).rejects.toMatchObject({ code: 'connection_lost' });
    expect(await next()).toMatchObject({ command: 'enquire_link', sequence: 1 });
  });
});
