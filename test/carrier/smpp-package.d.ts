// Just enough typing of the npm `smpp` package (no types published) for the interop tests' SMSC.
declare module 'smpp' {
  import type { Socket, Server as NetServer } from 'node:net';

  export interface PDU {
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    response(options?: Record<string, unknown>): PDU;
  }

  export interface Session {
    socket: Socket;
    on(event: string, listener: (pdu: PDU) => void): this;
    send(pdu: PDU, onResponse?: (resp: PDU) => void): boolean;
    deliver_sm(options: Record<string, unknown>, onResponse?: (resp: PDU) => void): boolean;
    submit_sm(options: Record<string, unknown>, onResponse?: (resp: PDU) => void): boolean;
    bind_transceiver(options: Record<string, unknown>, onResponse?: (resp: PDU) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export function createServer(options: Record<string, unknown>, listener: (session: Session) => void): Server;
  export function connect(options: { host: string; port: number }, onConnect?: () => void): Session;

  const smpp: {
    createServer: typeof createServer;
    connect: typeof connect;
  };
  export default smpp;
}
