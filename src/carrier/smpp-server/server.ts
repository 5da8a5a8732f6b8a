// Tasman's SMPP 3.4 server for customers' own SMPP clients (ESMEs): binds authenticated by the account's SMPP
// credentials, submit_sm through the same send path as POST /send (the EsmeGateway), deliver_sm for receipts and
// inbound messages back to receiving binds. It speaks through the same session and codec as the carrier link
// and the simulator. docs/smpp-server.md is the customer's side of it.
import net from 'node:net';
import tls from 'node:tls';
import { randomUUID } from 'node:crypto';
import { createSession, type Session } from '../smpp/session.ts';
import { responseTo } from '../smpp/codec.ts';
import { Status, type Pdu, type ShortMessagePdu } from '../smpp/pdu-types.ts';
import type { InboundDefaultAlphabet } from '../smpp/encoding.ts';
import { silentLogger, type Logger } from '../smpp/logger.ts';
import { listen } from '../simulator/listen.ts';
import type { BindLimits, BindRefusal, BoundCredential, EsmeGateway } from '../esme-port.ts';
import { readSubmission } from './submission.ts';
import { statusForCode } from './statuses.ts';
import { createBindLimits } from './limits.ts';
import { deliverSmFor } from './deliver.ts';
import { encodeCustomerPart } from '../smpp/customer-part.ts';
import type { CustomerPart } from '../carrier.ts';

const fitsOneSegment = (text: string, part: CustomerPart): boolean => {
  try {
    encodeCustomerPart(text, part);
    return true;
  } catch {
    return false;
  }
};

export interface SmppServerOptions {
  port: number;
  host: string;
  gateway: EsmeGateway;
  /** PEM certificate and key: the server speaks TLS only. */
  tls?: { cert: Buffer; key: Buffer };
  /** submit_sm a bind may have outstanding; more answer ESME_RTHROTTLED. */
  window: number;
  defaultAlphabet: InboundDefaultAlphabet;
  /** deliver_sm a receiving bind may have unanswered (a claimed batch of the credential's queue). */
  deliverWindow?: number;
  /** Called for each PDU received and sent on a bind (the metrics). */
  onPdu?: (direction: 'in' | 'out') => void;
  /** max_binds and tps across instances; default: this process's counts only. */
  limits?: BindLimits;
  logger?: Logger;
  now?: () => Date;
}

export type BindMode = 'transmitter' | 'receiver' | 'transceiver';

export interface BindView {
  credentialId: string;
  accountId: string;
  systemId: string;
  mode: BindMode;
  address: string;
  boundAt: Date;
  pdusIn: number;
  pdusOut: number;
  submitting: number;
}

interface Connection {
  session: Session;
  address: string;
  bound?: BindMode;
  credential?: BoundCredential;
  boundAt?: Date;
  submitting: number;
  pdusIn: number;
  pdusOut: number;
  release?: () => void;
}

const REFUSAL_STATUS: Record<BindRefusal, number> = {
  unknown_system_id: Status.ESME_RINVSYSID,
  wrong_password: Status.ESME_RINVPASWD,
  address_not_allowed: Status.ESME_RBINDFAIL,
  throttled: Status.ESME_RBINDFAIL,
};

/** A connection that has not bound within this long is closed. */
const BIND_WITHIN_MS = 60_000;

export function createSmppServer(options: SmppServerOptions) {
  const log = options.logger ?? silentLogger;
  const now = options.now ?? (() => new Date());
  const limits = options.limits ?? createBindLimits();
  const connections = new Set<Connection>();
  let port = options.port;
  let stopped = false;
  const totals = { pdusIn: 0, pdusOut: 0 };
  const count = (direction: 'in' | 'out') => {
    if (direction === 'in') totals.pdusIn++; else totals.pdusOut++;
    options.onPdu?.(direction);
  };
  const deliverWindow = options.deliverWindow ?? 10;
  const pumps = new Map<string, { again: boolean }>();
  const canReceive = (c: Connection) => c.session.isOpen() && (c.bound === 'receiver' || c.bound === 'transceiver');
  const receiversOf = (credentialId: string) => [...connections].filter((c) => c.credential?.id === credentialId && canReceive(c));

  /**
   * Sends a credential's queued deliveries to its receiving binds here, in order: a claimed batch goes out on one
   * bind in queue order, each held until its deliver_sm_resp; whatever was not answered OK goes back to the queue
   * in its place and the pump stops until the next wake (a poll, a NOTIFY, a new bind).
   */
  function wake(credentialId: string): void {
    if (stopped || receiversOf(credentialId).length === 0) return;
    const running = pumps.get(credentialId);
    if (running) { running.again = true; return; }
    const state = { again: false };
    pumps.set(credentialId, state);
    pump(credentialId, state).catch((err: unknown) => log.warn({ err, credentialId }, 'smpp server: delivery pump failed; retried on the next wake'))
      .finally(() => pumps.delete(credentialId));
  }

  async function pump(credentialId: string, state: { again: boolean }): Promise<void> {
    const token = randomUUID();
    for (;;) {
      const receivers = receiversOf(credentialId);
      if (stopped || receivers.length === 0) return;
      const batch = await options.gateway.queue.claim(credentialId, token, deliverWindow);
      if (batch.length === 0) {
        if (!state.again) return;
        state.again = false;
        continue;
      }
      // The bind with the fewest deliveries unanswered; the whole batch on it keeps the order.
      const conn = receivers.sort((a, b) => a.session.inFlight() - b.session.inFlight())[0]!;
      const answers = await Promise.all(batch.map((item) => {
        conn.pdusOut++; count('out');
        return conn.session.request(deliverSmFor(item.delivery)).then((resp) => {
          conn.pdusIn++; count('in');
          return resp.status === Status.ESME_ROK;
        }, () => false);
      }));
      // Done up to the first that failed; that one and everything after it go back, so the order holds.
      const firstFailed = answers.indexOf(false);
      const upTo = firstFailed === -1 ? batch.length : firstFailed;
      await options.gateway.queue.done(batch.slice(0, upTo).map((b) => b.id), token);
      if (firstFailed !== -1) {
        await options.gateway.queue.release(batch.slice(firstFailed).map((b) => b.id), token);
        return;
      }
    }
  }

  const nack = (pdu: Pdu, status: number): Pdu => ({ command: 'generic_nack', sequence: pdu.sequence, status, tlvs: {} });
  const canSubmit = (c: Connection) => c.bound === 'transmitter' || c.bound === 'transceiver';

  async function bind(conn: Connection, pdu: Pdu & { command: 'bind_transmitter' | 'bind_receiver' | 'bind_transceiver' }): Promise<Pdu> {
    if (conn.bound) return responseTo(pdu, Status.ESME_RALYBND);
    const mode = pdu.command.slice(5) as BindMode;
    const answer = await options.gateway.bind({ systemId: pdu.systemId, password: pdu.password, address: conn.address, mode });
    if (!answer.ok) {
      log.info({ systemId: pdu.systemId, address: conn.address, refusal: answer.refusal }, 'smpp server: bind refused');
      return responseTo(pdu, REFUSAL_STATUS[answer.refusal]);
    }
    const release = await limits.acquireBind(answer.credential, {
      mode, address: conn.address, counts: () => ({ pdusIn: conn.pdusIn, pdusOut: conn.pdusOut }),
    });
    if (!release) {
      log.info({ systemId: pdu.systemId, maxBinds: answer.credential.maxBinds }, 'smpp server: bind refused, max_binds reached');
      return responseTo(pdu, Status.ESME_RBINDFAIL);
    }
    if (!conn.session.isOpen()) { release(); return responseTo(pdu, Status.ESME_RBINDFAIL); }
    Object.assign(conn, { bound: mode, credential: answer.credential, boundAt: now(), release });
    log.info({ systemId: pdu.systemId, mode, address: conn.address }, 'smpp server: bound');
    // What waited for a receiving bind goes out once the bind_resp is on its way.
    if (mode !== 'transmitter') setImmediate(() => wake(answer.credential.id));
    return { ...responseTo(pdu, Status.ESME_ROK, 'TASMAN'), tlvs: { scInterfaceVersion: 0x34 } };
  }

  async function submit(conn: Connection, pdu: ShortMessagePdu): Promise<Pdu> {
    if (!canSubmit(conn) || !conn.credential) return responseTo(pdu, Status.ESME_RINVBNDSTS);
    if (stopped) return responseTo(pdu, Status.ESME_RSYSERR);
    if (conn.submitting >= options.window) return responseTo(pdu, Status.ESME_RTHROTTLED);
    const read = readSubmission(pdu, { now: now(), defaultAlphabet: options.defaultAlphabet });
    if (!read.ok) {
      log.debug({ systemId: conn.credential.systemId, reason: read.reason }, 'smpp server: submit_sm refused');
      return responseTo(pdu, read.status);
    }
    // A part of the customer's long message goes out as one segment: one that cannot is refused now, not after.
    if (read.submission.part && !fitsOneSegment(read.submission.text, read.submission.part)) return responseTo(pdu, Status.ESME_RINVMSGLEN);
    if (!(await limits.takeSubmit(conn.credential))) return responseTo(pdu, Status.ESME_RTHROTTLED);
    conn.submitting++;
    try {
      const answer = await options.gateway.submit(conn.credential, read.submission);
      if (answer.ok) return responseTo(pdu, Status.ESME_ROK, answer.messageId);
      log.debug({ systemId: conn.credential.systemId, code: answer.code }, 'smpp server: submit_sm refused by the send path');
      return responseTo(pdu, statusForCode(answer.code));
    } finally {
      conn.submitting--;
    }
  }

  async function onRequest(conn: Connection, pdu: Pdu): Promise<Pdu> {
    conn.pdusIn++; count('in');
    const answer = await answerTo(conn, pdu);
    conn.pdusOut++; count('out');
    return answer;
  }

  function answerTo(conn: Connection, pdu: Pdu): Promise<Pdu> | Pdu {
    switch (pdu.command) {
      case 'bind_transmitter': case 'bind_receiver': case 'bind_transceiver':
        return bind(conn, pdu);
      case 'submit_sm':
        return submit(conn, pdu);
      default:
        // deliver_sm, query_sm and the rest are not offered to ESMEs.
        return nack(pdu, Status.ESME_RINVCMDID);
    }
  }

  function onConnection(socket: net.Socket): void {
    if (stopped) { socket.destroy(); return; }
    socket.setKeepAlive(true, 30_000);
    const conn = { address: socket.remoteAddress ?? '', submitting: 0, pdusIn: 0, pdusOut: 0 } as Connection;
    conn.session = createSession({
      socket, window: options.window, responseTimeoutMs: 30_000, enquireLinkIntervalMs: 0, logger: log,
      onRequest: (pdu) => onRequest(conn, pdu),
    });
    connections.add(conn);
    const unbound = setTimeout(() => { if (!conn.bound) conn.session.destroy(new Error('no bind in time')); }, BIND_WITHIN_MS);
    unbound.unref();
    void conn.session.closed.then(() => {
      clearTimeout(unbound);
      connections.delete(conn);
      conn.release?.();
      if (conn.credential) log.info({ systemId: conn.credential.systemId, address: conn.address }, 'smpp server: bind closed');
    });
  }

  const server = options.tls
    ? tls.createServer({ cert: options.tls.cert, key: options.tls.key }, onConnection)
    : net.createServer(onConnection);

  return {
    get port() { return port; },
    async start() {
      port = await listen(server as net.Server, options.port, options.host);
      log.info({ host: options.host, port, tls: Boolean(options.tls) }, 'SMPP server listening');
    },
    /** A delivery was queued for the credential (NOTIFY): its receiving binds here take it. */
    wake,
    /**
     * Every credential with a receiving bind here looks at its queue: the caller's periodic job, for what no wake
     * announced (a NOTIFY missed, a claim another instance let go).
     */
    wakeReceiving(): void {
      for (const id of new Set([...connections].filter(canReceive).map((c) => c.credential!.id))) wake(id);
    },
    /** Closes every bind of a credential at once (it was revoked). */
    closeCredential(credentialId: string): number {
      let closed = 0;
      for (const conn of connections) {
        if (conn.credential?.id !== credentialId) continue;
        closed++;
        conn.session.destroy(new Error('credential revoked'));
      }
      return closed;
    },
    binds(): BindView[] {
      return [...connections].flatMap((c) => (c.bound && c.credential ? [{
        credentialId: c.credential.id, accountId: c.credential.accountId, systemId: c.credential.systemId, mode: c.bound,
        address: c.address, boundAt: c.boundAt!, pdusIn: c.pdusIn, pdusOut: c.pdusOut, submitting: c.submitting,
      }] : []));
    },
    totals: () => ({ ...totals }),
    /** Stops accepting, unbinds every ESME politely, and waits for the sockets to close. */
    async stop() {
      stopped = true;
      // close() resolves once every connection has ended, so the binds are asked to unbind meanwhile.
      const closed = new Promise<void>((resolve) => { server.close(() => resolve()); });
      await Promise.all([...connections].map((c) => c.session.unbind()));
      await closed;
    },
  };
}

export type SmppServer = ReturnType<typeof createSmppServer>;
