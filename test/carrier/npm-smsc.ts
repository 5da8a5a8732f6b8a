// A small SMSC built on the npm `smpp` package's server mode: an implementation independent of ours. Tests
// script its behaviour per submit_sm and read back what it received, both as `smpp` decoded it and raw.
import smpp, { type PDU, type Session } from 'smpp';
import { once } from 'node:events';
import { createFrameSplitter } from '../../src/carrier/smpp/codec.ts';

export interface Received {
  pdu: PDU;
  /** The exact submit_sm bytes on the wire. */
  raw: Buffer;
  session: Session;
}

export type SubmitBehaviour = (submit: Received, respond: (status?: number, messageId?: string) => void) => void;

export interface NpmSmsc {
  port: number;
  binds: PDU[];
  submits: Received[];
  sessions: Session[];
  /** Every PDU the ESME sent, raw, in order (to read answers to PDUs written raw by a test). */
  frames: Buffer[];
  /** Called for each submit_sm; default: answer OK with id "ID<n>". */
  onSubmit: SubmitBehaviour;
  answerEnquireLink: boolean;
  /** Every query_sm received. */
  queries: PDU[];
  /** Called for each query_sm; default: ESME_RINVMSGID (an id it does not know). */
  onQuery: (query: PDU, respond: (status: number, answer?: { message_state: number; final_date?: string; error_code?: number }) => void) => void;
  stop(): Promise<void>;
}

export async function startNpmSmsc(): Promise<NpmSmsc> {
  let counter = 0;
  const smsc: NpmSmsc = {
    port: 0, binds: [], submits: [], sessions: [], frames: [], answerEnquireLink: true, queries: [],
    onQuery: (_q, respond) => respond(0x0c),
    onSubmit: (_s, respond) => respond(0, `ID${++counter}`),
    stop: async () => {
      for (const s of smsc.sessions) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };

  const server = smpp.createServer({}, (session) => {
    smsc.sessions.push(session);
    const raw = new Map<number, Buffer>();
    const splitter = createFrameSplitter();
    session.socket.on('data', (chunk: Buffer) => {
      for (const frame of splitter.push(chunk)) {
        smsc.frames.push(frame);
        if (frame.readUInt32BE(4) === 4) raw.set(frame.readUInt32BE(12), frame);
      }
    });
    session.on('error', () => {});
    session.on('bind_transceiver', (pdu) => { smsc.binds.push(pdu); session.send(pdu.response({ system_id: 'NPMSMSC' })); });
    session.on('enquire_link', (pdu) => { if (smsc.answerEnquireLink) session.send(pdu.response()); });
    session.on('unbind', (pdu) => { session.send(pdu.response()); session.close(); });
    session.on('query_sm', (pdu) => {
      smsc.queries.push(pdu);
      smsc.onQuery(pdu, (status, answer) => {
        session.send(status ? pdu.response({ command_status: status })
          : pdu.response({ message_id: pdu.message_id, final_date: answer?.final_date ?? '', message_state: answer?.message_state ?? 1, error_code: answer?.error_code ?? 0 }));
      });
    });
    session.on('submit_sm', (pdu) => {
      const received: Received = { pdu, raw: raw.get(pdu.sequence_number) ?? Buffer.alloc(0), session };
      smsc.submits.push(received);
      smsc.onSubmit(received, (status = 0, messageId = `ID${++counter}`) => {
        session.send(status ? pdu.response({ command_status: status }) : pdu.response({ message_id: messageId }));
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  smsc.port = typeof address === 'object' && address ? address.port : 0;
  return smsc;
}

/** Sends a deliver_sm from the SMSC and resolves with the ESME's deliver_sm_resp status. */
export function deliver(session: Session, options: Record<string, unknown>): Promise<number> {
  return new Promise((resolve) => session.deliver_sm(options, (resp) => resolve(resp.command_status)));
}

/**
 * A deliver_sm whose framing is sound but whose body is not: service_type runs to the end without its NUL.
 * `smpp` cannot send that, so it goes straight onto the socket.
 */
export function undecodableDeliverSm(sequence: number): Buffer {
  const body = Buffer.from('CMT', 'latin1');
  const head = Buffer.alloc(16);
  head.writeUInt32BE(16 + body.length, 0);
  head.writeUInt32BE(0x00000005, 4);
  head.writeUInt32BE(0, 8);
  head.writeUInt32BE(sequence, 12);
  return Buffer.concat([head, body]);
}

/** The status of the ESME's answer (deliver_sm_resp or generic_nack) to the PDU with this sequence number. */
export function answerTo(smsc: NpmSmsc, sequence: number): { commandId: number; status: number } | undefined {
  const frame = smsc.frames.find((f) => f.readUInt32BE(12) === sequence && (f.readUInt32BE(4) & 0x80000000) !== 0);
  return frame ? { commandId: frame.readUInt32BE(4), status: frame.readUInt32BE(8) } : undefined;
}
