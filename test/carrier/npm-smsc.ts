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
  /** Called for each submit_sm; default: answer OK with id "ID<n>". */
  onSubmit: SubmitBehaviour;
  answerEnquireLink: boolean;
  stop(): Promise<void>;
}

export async function startNpmSmsc(): Promise<NpmSmsc> {
  let counter = 0;
  const smsc: NpmSmsc = {
    port: 0, binds: [], submits: [], sessions: [], answerEnquireLink: true,
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
        if (frame.readUInt32BE(4) === 4) raw.set(frame.readUInt32BE(12), frame);
      }
    });
    session.on('error', () => {});
    session.on('bind_transceiver', (pdu) => { smsc.binds.push(pdu); session.send(pdu.response({ system_id: 'NPMSMSC' })); });
    session.on('enquire_link', (pdu) => { if (smsc.answerEnquireLink) session.send(pdu.response()); });
    session.on('unbind', (pdu) => { session.send(pdu.response()); session.close(); });
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
