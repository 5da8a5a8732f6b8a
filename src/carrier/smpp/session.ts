// One SMPP connection, either side of it. Invariants:
//  - sequence numbers run 1..0x7FFFFFFF and wrap to 1; responses are matched by sequence, in any order;
//  - at most `window` of our requests await a response (enquire_link bypasses it, so a full window cannot
//    starve the keepalive); each has its own response timeout, after which a late response is ignored;
//  - a request is answered only when `onRequest` settles, so a deliver_sm is acknowledged after its handler
//    committed; incoming enquire_link and unbind are answered here, unknown commands get generic_nack;
//  - anything that breaks the stream (bad framing, a socket error, an unanswered enquire_link) closes the
//    session, and every request still waiting rejects with a LinkError;
//  - a PDU whose framing is sound but whose body does not decode costs that PDU only: a request is answered with
//    an error (deliver_sm_resp ESME_RX_P_APPN, so the SMSC does not resend it; generic_nack for others), a
//    response fails the request it answers, and the session carries on.
import type { Socket } from 'node:net';
import { createFrameSplitter, decodePdu, encodePdu, responseTo } from './codec.ts';
import { LinkError, MalformedPduError } from './errors.ts';
import { CommandId, isResponseId, Status, type Pdu } from './pdu-types.ts';
import { silentLogger, type Logger } from './logger.ts';

export interface SessionOptions {
  socket: Socket;
  window: number;
  responseTimeoutMs: number;
  /** 0 disables the keepalive. */
  enquireLinkIntervalMs: number;
  /** Answers a request (bind, submit_sm, deliver_sm) with its response PDU; the sequence is filled in here. */
  onRequest(pdu: Pdu): Promise<Pdu>;
  logger?: Logger;
  /** The last sequence number used; only tests set it, to exercise the wrap. */
  initialSequence?: number;
}

export interface Session {
  /** Sends a request and resolves with its response (whatever its status) or rejects with a LinkError. */
  request(pdu: Pdu, options?: { bypassWindow?: boolean }): Promise<Pdu>;
  /** Polite close: unbind, wait briefly for unbind_resp, then close the socket. */
  unbind(): Promise<void>;
  destroy(reason: Error): void;
  /** Resolves once the session is closed, with the reason. */
  readonly closed: Promise<Error>;
  inFlight(): number;
  isOpen(): boolean;
}

const MAX_SEQUENCE = 0x7fffffff;

interface Pending {
  resolve(pdu: Pdu): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  counted: boolean;
}

export function createSession(options: SessionOptions): Session {
  const { socket, window, responseTimeoutMs } = options;
  const log = options.logger ?? silentLogger;
  const splitter = createFrameSplitter();
  const pending = new Map<number, Pending>();
  const slotWaiters: Array<{ resolve(): void; reject(err: Error): void }> = [];
  let counted = 0;
  let sequence = options.initialSequence ?? 0;
  let closeReason: Error | undefined;
  let resolveClosed!: (err: Error) => void;
  const closed = new Promise<Error>((resolve) => { resolveClosed = resolve; });

  // A function, so TypeScript does not assume the value survives an await unchanged.
  const closedWith = (): Error | undefined => closeReason;

  const nextSequence = (): number => {
    sequence = sequence >= MAX_SEQUENCE ? 1 : sequence + 1;
    // After a wrap, skip numbers still awaiting a response rather than confuse two requests.
    while (pending.has(sequence)) sequence = sequence >= MAX_SEQUENCE ? 1 : sequence + 1;
    return sequence;
  };

  // PDUs written in one turn of the event loop leave in one writev: a claim's submits, a receipt batch's
  // deliver_sm_resps. One system call per PDU was the largest single cost of the link under load. The bytes and
  // their order are unchanged; end() flushes what is corked, and destroy() below flushes it first, so a request
  // that was written is sent exactly as if it had gone at once (its rejection says connection_lost, never closed:
  // the carrier set treats it as maybe accepted), and nothing is written once the session is closed.
  let corked = false;
  const uncork = (): void => {
    corked = false;
    socket.uncork();
  };
  const write = (pdu: Pdu | Buffer): void => {
    if (closeReason || socket.destroyed) return;
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    socket.write(Buffer.isBuffer(pdu) ? pdu : encodePdu(pdu));
  };

  function finish(reason: Error): void {
    if (closeReason) return;
    closeReason = reason;
    clearInterval(keepalive);
    const lost = new LinkError(`connection lost: ${reason.message}`, 'connection_lost', reason);
    for (const [, p] of pending) { clearTimeout(p.timer); p.reject(lost); }
    pending.clear();
    for (const w of slotWaiters.splice(0)) w.reject(lost);
    resolveClosed(reason);
  }

  function close(reason: Error, lastWords?: Pdu): void {
    if (closeReason) return;
    if (lastWords) write(lastWords);
    finish(reason);
    socket.end();
    // A peer that never closes its side must not keep the socket (and the reconnect loop) waiting.
    setTimeout(() => socket.destroy(), 2_000).unref();
  }

  function releaseSlot(p: Pending): void {
    if (!p.counted) return;
    counted--;
    slotWaiters.shift()?.resolve();
  }

  async function acquireSlot(): Promise<void> {
    if (counted < window) { counted++; return; }
    // The slot is handed over by releaseSlot: the count does not drop and rise again.
    await new Promise<void>((resolve, reject) => slotWaiters.push({ resolve, reject }));
  }

  async function request(pdu: Pdu, opts: { bypassWindow?: boolean } = {}): Promise<Pdu> {
    if (closeReason) throw new LinkError(`session closed: ${closeReason.message}`, 'closed');
    const isCounted = !opts.bypassWindow;
    if (isCounted) await acquireSlot();
    const late = closedWith();
    if (late) {
      if (isCounted) counted--;
      throw new LinkError(`session closed: ${late.message}`, 'closed');
    }
    const seq = nextSequence();
    let bytes: Buffer;
    try {
      bytes = encodePdu({ ...pdu, sequence: seq } as Pdu);
    } catch (err) {
      if (isCounted) { counted--; slotWaiters.shift()?.resolve(); }
      throw err;
    }
    return new Promise<Pdu>((resolve, reject) => {
      const entry: Pending = {
        resolve, reject, counted: isCounted,
        timer: setTimeout(() => {
          pending.delete(seq);
          releaseSlot(entry);
          reject(new LinkError(`no response to ${pdu.command} #${seq} in ${responseTimeoutMs} ms`, 'response_timeout'));
        }, responseTimeoutMs),
      };
      pending.set(seq, entry);
      write(bytes);
    });
  }

  function onResponse(pdu: Pdu): void {
    const p = pending.get(pdu.sequence);
    if (!p) {
      log.warn({ command: pdu.command, sequence: pdu.sequence }, 'smpp response to no pending request (late?)');
      return;
    }
    pending.delete(pdu.sequence);
    clearTimeout(p.timer);
    releaseSlot(p);
    p.resolve(pdu);
  }

  function onIncoming(pdu: Pdu): void {
    switch (pdu.command) {
      case 'enquire_link':
        write(responseTo(pdu, Status.ESME_ROK));
        return;
      case 'unbind':
        close(new LinkError('peer unbound', 'closed'), responseTo(pdu, Status.ESME_ROK));
        return;
      case 'unknown':
        if (isResponseId(pdu.commandId)) return;
        write(responseTo(pdu, Status.ESME_RINVCMDID));
        return;
      case 'generic_nack':
        onResponse(pdu);
        return;
    }
    if (pdu.command.endsWith('_resp')) { onResponse(pdu); return; }
    options.onRequest(pdu).then(
      (resp) => write({ ...resp, sequence: pdu.sequence } as Pdu),
      (err: unknown) => {
        log.error({ err, command: pdu.command }, 'smpp request handler failed');
        write(responseTo(pdu, Status.ESME_RX_T_APPN));
      },
    );
  }

  /**
   * The frame splitter already checked command_length, so the stream is still in step: only this PDU is lost.
   * One bad deliver_sm used to close the session, and the SMSC resent it on every reconnect (a loop).
   */
  function onUndecodable(frame: Buffer, err: MalformedPduError): void {
    const commandId = frame.readUInt32BE(4);
    const sequence = frame.readUInt32BE(12);
    // Header fields and length only: the body holds addresses and text (phone numbers, message content).
    log.warn({ err, commandId, commandStatus: frame.readUInt32BE(8), sequence, length: frame.length }, 'smpp PDU undecodable; answered with an error, session kept');
    if (isResponseId(commandId)) {
      const p = pending.get(sequence);
      if (!p) return;
      pending.delete(sequence);
      clearTimeout(p.timer);
      releaseSlot(p);
      p.reject(err);
      return;
    }
    if (commandId === CommandId.deliver_sm) {
      write({ command: 'deliver_sm_resp', sequence, status: Status.ESME_RX_P_APPN, messageId: '', tlvs: {} });
      return;
    }
    write({ command: 'generic_nack', sequence, status: Status.ESME_RINVCMDLEN, tlvs: {} });
  }

  socket.on('data', (chunk: Buffer) => {
    if (closeReason) return;
    let frames: Buffer[];
    try {
      frames = splitter.push(chunk);
    } catch (err) {
      // No stack: the client's reconnect line says why, once, in words.
      log.debug({ reason: (err as Error).message }, 'smpp stream unframeable, closing');
      close(err as Error, { command: 'generic_nack', sequence: 0, status: Status.ESME_RINVCMDLEN, tlvs: {} });
      return;
    }
    for (const frame of frames) {
      if (closeReason) return;
      let pdu: Pdu;
      try {
        pdu = decodePdu(frame);
      } catch (err) {
        onUndecodable(frame, err instanceof MalformedPduError ? err : new MalformedPduError(String(err)));
        continue;
      }
      onIncoming(pdu);
    }
  });
  socket.on('error', (err) => finish(err));
  socket.on('close', () => finish(new LinkError('socket closed', 'connection_lost')));

  const keepalive = options.enquireLinkIntervalMs > 0 ? setInterval(() => {
    request({ command: 'enquire_link', sequence: 0, status: 0, tlvs: {} }, { bypassWindow: true }).catch((err: Error) => {
      if (closeReason) return;
      log.debug({ reason: err.message }, 'smpp enquire_link unanswered, closing');
      close(err);
    });
  }, options.enquireLinkIntervalMs) : undefined;
  keepalive?.unref();

  return {
    request,
    async unbind() {
      if (closeReason) return;
      try {
        await request({ command: 'unbind', sequence: 0, status: 0, tlvs: {} }, { bypassWindow: true });
      } catch {
        // Closing anyway.
      }
      close(new LinkError('unbound', 'closed'));
    },
    destroy(reason) {
      finish(reason);
      if (corked) uncork();
      socket.destroy();
    },
    closed,
    inFlight: () => pending.size,
    isOpen: () => !closeReason,
  };
}
