// The built-in SMSC: a real SMPP 3.4 server on TCP for development and tests. It accepts binds, answers
// submit_sm with a hex message id and, dlrDelayMs later, sends one delivery receipt per submit_sm (so one per
// segment), chosen by the recipient's last three digits:
//   999 undelivered, 998 expired, 997 never a receipt, 996 submit refused (ESME_RINVDSTADR, permanent),
//   anything else delivered.
// Like a real SMSC it resends any deliver_sm (receipt or MO) whose deliver_sm_resp is missing, late or not OK,
// so the ESME's at-least-once handling gets exercised. It answers query_sm for the messages it accepted (the last
// 100,000): ENROUTE until dlrDelayMs has passed, then the receipt's state; a 997 message (whose receipt never
// comes) is then DELIVERED, as when an SMSC's receipt is lost. An id it does not know gets ESME_RINVMSGID.
import net from 'node:net';
import { randomBytes, randomInt } from 'node:crypto';
import { createSession, type Session } from '../smpp/session.ts';
import { responseTo } from '../smpp/codec.ts';
import { MessageState, Npi, shortMessageDefaults, Status, Ton, type Pdu, type ShortMessageFields, type ShortMessagePdu } from '../smpp/pdu-types.ts';
import { decodeShortMessage, segmentText } from '../smpp/segment.ts';
import { silentLogger, type Logger } from '../smpp/logger.ts';
import { normaliseMessageId } from '../smpp/receipt.ts';
import { listen } from './listen.ts';
import { openReceiptJournal, type JournalledReceipt, type ReceiptJournal } from './journal.ts';

export interface SimulatorOptions {
  port: number;
  host?: string;
  dlrDelayMs?: number;
  /** When set, binds must carry these credentials. */
  systemId?: string;
  password?: string;
  /** How long to wait for a deliver_sm_resp before resending (default 10 s). */
  resendAfterMs?: number;
  /** Pause between resends (default 1 s). */
  retryDelayMs?: number;
  /**
   * deliver_sm (receipts, MO) awaiting deliver_sm_resp per connection (default 100, like SMPP_WINDOW). With
   * prompt receipts this bounds receipt throughput to window / the ESME's commit time.
   */
  window?: number;
  /**
   * Where pending receipts are kept (a file in DATA_DIR): each is fsync'd before its submit_sm_resp, and those due
   * when the process died are sent after a restart. Without it they live in memory only.
   */
  journalFile?: string;
  logger?: Logger;
}

export interface Simulator {
  /** The listening port (the ephemeral one when started with port 0). */
  readonly port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Sends an MO message (split into UDH parts when long); resolves when every part was acknowledged. */
  injectInbound(message: { from: string; to: string; text: string }): Promise<void>;
}

export type ReceiptOutcome = 'delivered' | 'undelivered' | 'expired' | 'none' | 'refused';

export function outcomeFor(destination: string): ReceiptOutcome {
  switch (destination.slice(-3)) {
    case '999': return 'undelivered';
    case '998': return 'expired';
    case '997': return 'none';
    case '996': return 'refused';
    default: return 'delivered';
  }
}

/** How many accepted messages query_sm can still find. */
const REMEMBERED = 100_000;

const RECEIPT = {
  delivered: { stat: 'DELIVRD', state: MessageState.DELIVERED, err: '000', dlvrd: '001' },
  undelivered: { stat: 'UNDELIV', state: MessageState.UNDELIVERABLE, err: '001', dlvrd: '000' },
  expired: { stat: 'EXPIRED', state: MessageState.EXPIRED, err: '000', dlvrd: '000' },
} as const;

/** YYMMDDhhmm in UTC, the receipt date format. */
const receiptDate = (d: Date): string => d.toISOString().replace(/[-:T]/g, '').slice(2, 12);

const addressOf = (value: string): { ton: number; npi: number; addr: string } =>
  /^\+\d+$/.test(value) ? { ton: Ton.INTERNATIONAL, npi: Npi.ISDN, addr: value.slice(1) }
    : /^\d+$/.test(value) ? { ton: Ton.UNKNOWN, npi: Npi.ISDN, addr: value }
      : { ton: Ton.ALPHANUMERIC, npi: Npi.UNKNOWN, addr: value };

interface Connection {
  session: Session;
  bound?: 'transmitter' | 'receiver' | 'transceiver';
}

interface Outgoing {
  pdu: ShortMessagePdu;
  prefer?: Connection;
  resolve(): void;
  reject(err: Error): void;
}

export function createSimulator(options: SimulatorOptions): Simulator {
  const log = options.logger ?? silentLogger;
  const host = options.host ?? '127.0.0.1';
  const dlrDelayMs = options.dlrDelayMs ?? 200;
  const resendAfterMs = options.resendAfterMs ?? 10_000;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const connections = new Set<Connection>();
  const waiting: Outgoing[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const outstanding = new Set<Outgoing>();
  let stopped = false;
  let port = options.port;
  // Accepted messages by their id read as a hex number (as an ESME that kept them normalised sends them back).
  const accepted = new Map<string, { finalAt: number; state: number }>();
  const remember = (messageId: string, outcome: ReceiptOutcome): void => {
    accepted.set(normaliseMessageId(messageId, 'hex'), {
      finalAt: Date.now() + dlrDelayMs, state: outcome === 'none' ? MessageState.DELIVERED : RECEIPT[outcome as keyof typeof RECEIPT].state,
    });
    if (accepted.size > REMEMBERED) accepted.delete(accepted.keys().next().value!);
  };

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => { timers.delete(t); fn(); }, ms);
    timers.add(t);
  };

  const canReceive = (c: Connection): boolean =>
    c.session.isOpen() && (c.bound === 'receiver' || c.bound === 'transceiver');

  function send(item: Outgoing): void {
    if (stopped) return;
    const target = item.prefer && canReceive(item.prefer) ? item.prefer : [...connections].find(canReceive);
    if (!target) { waiting.push(item); return; }
    target.session.request(item.pdu).then(
      (resp) => {
        if (resp.status === Status.ESME_ROK) { outstanding.delete(item); item.resolve(); return; }
        log.info({ status: resp.status }, 'simulator: deliver_sm refused, resending later');
        later(retryDelayMs, () => send(item));
      },
      (err: Error) => {
        log.info({ err: err.message }, 'simulator: deliver_sm unacknowledged, resending later');
        later(retryDelayMs, () => send(item));
      },
    );
  }

  function deliver(fields: ShortMessageFields, tlvs: ShortMessagePdu['tlvs'], prefer?: Connection): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const item: Outgoing = { pdu: { command: 'deliver_sm', sequence: 0, status: 0, ...fields, tlvs }, resolve, reject };
      if (prefer) item.prefer = prefer;
      outstanding.add(item);
      send(item);
    });
  }

  let journal: ReceiptJournal | undefined;

  /** The receipt a submit_sm will get, as journalled: everything the deliver_sm needs, and when it is due. */
  function receiptFor(submit: ShortMessagePdu, messageId: string, outcome: keyof typeof RECEIPT): JournalledReceipt {
    const r = RECEIPT[outcome];
    const now = new Date();
    const sample = decodeShortMessage(submit).text.slice(0, 20);
    const text = `id:${messageId} sub:001 dlvrd:${r.dlvrd} submit date:${receiptDate(now)} ` +
      `done date:${receiptDate(new Date(now.getTime() + dlrDelayMs))} stat:${r.stat} err:${r.err} text:${sample}`;
    return {
      id: messageId, dueAt: now.getTime() + dlrDelayMs,
      pdu: {
        sourceAddrTon: submit.destAddrTon, sourceAddrNpi: submit.destAddrNpi, sourceAddr: submit.destinationAddr,
        destAddrTon: submit.sourceAddrTon, destAddrNpi: submit.sourceAddrNpi, destinationAddr: submit.sourceAddr, text, state: r.state,
      },
    };
  }

  function scheduleReceipt(receipt: JournalledReceipt, conn?: Connection): void {
    later(Math.max(0, receipt.dueAt - Date.now()), () => {
      const { text, state, ...addresses } = receipt.pdu;
      const fields: ShortMessageFields = { ...shortMessageDefaults(), ...addresses, esmClass: 0x04, shortMessage: Buffer.from(text, 'latin1') };
      deliver(fields, { receiptedMessageId: receipt.id, messageState: state }, conn).then(() => journal?.done(receipt.id), () => {});
    });
  }

  async function onRequest(conn: Connection, pdu: Pdu): Promise<Pdu> {
    switch (pdu.command) {
      case 'bind_transmitter': case 'bind_receiver': case 'bind_transceiver': {
        if (conn.bound) return responseTo(pdu, Status.ESME_RALYBND);
        if (options.systemId !== undefined && pdu.systemId !== options.systemId) return responseTo(pdu, Status.ESME_RINVSYSID);
        if (options.password !== undefined && pdu.password !== options.password) return responseTo(pdu, Status.ESME_RINVPASWD);
        conn.bound = pdu.command.slice(5) as Connection['bound'];
        log.info({ systemId: pdu.systemId, mode: conn.bound }, 'simulator: bound');
        // Anything that waited for a receiver goes out now.
        for (const item of waiting.splice(0)) send(item);
        return { ...responseTo(pdu, Status.ESME_ROK, 'TASMANSIM'), tlvs: { scInterfaceVersion: 0x34 } };
      }
      case 'submit_sm': {
        if (conn.bound !== 'transmitter' && conn.bound !== 'transceiver') return responseTo(pdu, Status.ESME_RINVBNDSTS);
        // Shutting down: its unbind is on the way, and an answer written after it would be lost to the ESME (which
        // closes on unbind), so the message would be sent twice. Refuse (temporary), as an SMSC going down does.
        if (stopped) return responseTo(pdu, Status.ESME_RSYSERR);
        const outcome = outcomeFor(pdu.destinationAddr);
        if (outcome === 'refused') return responseTo(pdu, Status.ESME_RINVDSTADR);
        const messageId = randomBytes(6).toString('hex').toUpperCase();
        if (outcome !== 'none' && (pdu.registeredDelivery & 0x03) !== 0) {
          const receipt = receiptFor(pdu, messageId, outcome);
          // On disk before the answer that promises it: a crash after the answer cannot lose the receipt.
          try {
            await journal?.promise(receipt);
          } catch (err) {
            log.error({ err }, 'simulator: receipt journal write failed; submit refused');
            return responseTo(pdu, Status.ESME_RSYSERR);
          }
          scheduleReceipt(receipt, conn);
        }
        remember(messageId, outcome);
        // At debug level every accepted submit is one line: tests count them across SMSC processes.
        log.debug({ id: messageId, to: pdu.destinationAddr, port }, 'simulator: submit_sm accepted');
        return responseTo(pdu, Status.ESME_ROK, messageId);
      }
      case 'query_sm': {
        if (conn.bound !== 'transmitter' && conn.bound !== 'transceiver') return responseTo(pdu, Status.ESME_RINVBNDSTS);
        const known = accepted.get(normaliseMessageId(pdu.messageId, 'hex'));
        log.debug({ id: pdu.messageId, known: known !== undefined }, 'simulator: query_sm');
        if (!known) return responseTo(pdu, Status.ESME_RINVMSGID);
        const final = Date.now() >= known.finalAt;
        return {
          ...responseTo(pdu, Status.ESME_ROK), command: 'query_sm_resp', messageId: pdu.messageId,
          finalDate: final ? `${new Date(known.finalAt).toISOString().replace(/[-:T]/g, '').slice(2, 14)}000+` : '',
          messageState: final ? known.state : MessageState.ENROUTE, errorCode: 0,
        } as Pdu;
      }
      default:
        return responseTo(pdu, Status.ESME_RINVCMDID);
    }
  }

  const server = net.createServer((socket) => {
    if (stopped) { socket.destroy(); return; }
    const conn = {} as Connection;
    conn.session = createSession({
      socket, window: options.window ?? 100, responseTimeoutMs: resendAfterMs, enquireLinkIntervalMs: 0, logger: log,
      onRequest: (pdu) => onRequest(conn, pdu),
    });
    connections.add(conn);
    void conn.session.closed.then(() => connections.delete(conn));
  });

  return {
    get port() { return port; },

    start: async () => {
      if (options.journalFile) {
        journal = openReceiptJournal(options.journalFile);
        // Receipts promised before a restart go to whichever ESME binds, when due (at once if overdue).
        for (const receipt of journal.pending) scheduleReceipt(receipt);
        if (journal.pending.length > 0) log.info({ receipts: journal.pending.length }, 'simulator: receipts promised before the restart will be sent');
      }
      port = await listen(server, options.port, host);
      log.info({ host, port }, 'SMSC simulator listening');
    },

    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const item of outstanding) item.reject(new Error('simulator stopped'));
      outstanding.clear();
      waiting.length = 0;
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...connections].map((c) => c.session.unbind()));
      for (const c of connections) c.session.destroy(new Error('simulator stopped'));
      await closing;
      journal?.close();
    },

    async injectInbound({ from, to, text }) {
      if (![...connections].some(canReceive)) throw new Error('no ESME is bound as receiver or transceiver');
      const encoded = segmentText(text, randomInt(256));
      const src = addressOf(from);
      const dst = addressOf(to);
      await Promise.all(encoded.segments.map((shortMessage) => deliver({
        ...shortMessageDefaults(),
        sourceAddrTon: src.ton, sourceAddrNpi: src.npi, sourceAddr: src.addr,
        destAddrTon: dst.ton, destAddrNpi: dst.npi, destinationAddr: dst.addr,
        esmClass: encoded.esmClass, dataCoding: encoded.dataCoding, shortMessage,
      }, {})));
    },
  };
}
