// An SMSC that accepts every submit_sm, counts the submits it accepted per destination, and sends a DELIVRD
// receipt (deliver_sm) for each one, as a real SMSC does: with a window of unacknowledged receipts per session,
// resending a receipt that is refused, and resending on the next bind whatever a dropped session left
// unacknowledged. It times each deliver_sm until its deliver_sm_resp. Built on the npm `smpp` package, an
// implementation independent of Tasman's. Used by the kill -9 test and bench/receipts.ts.
import smpp, { type PDU, type Session } from 'smpp';
import { once } from 'node:events';

interface Receipt {
  id: string;
  destination: string;
  source: string;
}

export interface ReceiptSmsc {
  port: number;
  /** Submits accepted (answered ESME_ROK on a live session), per destination address (no '+'). */
  accepted: Map<string, number>;
  /** Accepted submits in all. */
  acceptedTotal(): number;
  /** Receipts acknowledged with ESME_ROK. */
  acknowledged(): number;
  /** deliver_sm → deliver_sm_resp times (ms) of acknowledged receipts, in order. */
  latenciesMs: number[];
  /** Receipts sent again (refused, or left unacknowledged by a dropped session). */
  resent(): number;
  binds(): number;
  /** Sessions bound now (a killed ESME's is gone once the SMSC has read all it sent). */
  bound(): number;
  stop(): Promise<void>;
}

export interface ReceiptSmscOptions {
  /** Unacknowledged receipts per session (default 100, like SMPP_WINDOW). */
  window?: number;
  /** Delay between accepting a submit and queueing its receipt (default 0). */
  receiptDelayMs?: number;
  /** Pause before a refused receipt is sent again (default 1 s). */
  retryDelayMs?: number;
}

const stamp = '2601011200';

export async function startReceiptSmsc(options: ReceiptSmscOptions = {}): Promise<ReceiptSmsc> {
  const window = options.window ?? 100;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  let counter = 0;
  let acknowledged = 0;
  let resent = 0;
  let binds = 0;
  const accepted = new Map<string, number>();
  // Receipts not yet acknowledged and not on a session's wire: sent on any bound session with room.
  const waiting: Receipt[] = [];
  const live = new Map<Session, Set<Receipt>>();
  const timers = new Set<NodeJS.Timeout>();
  const latenciesMs: number[] = [];

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => { timers.delete(timer); run(); }, ms);
    timers.add(timer);
  };

  function pump(): void {
    for (const [session, outstanding] of live) {
      while (outstanding.size < window && waiting.length > 0) {
        const receipt = waiting.shift()!;
        outstanding.add(receipt);
        const sentAt = performance.now();
        session.deliver_sm({
          source_addr_ton: 1, source_addr_npi: 1, source_addr: receipt.destination,
          dest_addr_ton: 5, destination_addr: receipt.source, esm_class: 4,
          short_message: `id:${receipt.id} sub:001 dlvrd:001 submit date:${stamp} done date:${stamp} stat:DELIVRD err:000 text:`,
        }, (resp: PDU) => {
          if (!outstanding.delete(receipt)) return; // the session was dropped meanwhile: already queued again
          if (resp.command_status === 0) {
            acknowledged++;
            latenciesMs.push(performance.now() - sentAt);
          } else {
            resent++;
            later(retryDelayMs, () => { waiting.push(receipt); pump(); });
          }
          pump();
        });
      }
    }
  }

  const server = smpp.createServer({}, (session) => {
    session.on('error', () => {});
    const dropped = () => {
      const outstanding = live.get(session);
      if (!outstanding) return;
      live.delete(session);
      resent += outstanding.size;
      waiting.unshift(...outstanding);
      pump();
    };
    session.on('close', dropped);
    session.socket.on('close', dropped);
    session.on('bind_transceiver', (pdu) => {
      binds++;
      session.send(pdu.response({ system_id: 'RCPTSMSC' }));
      live.set(session, new Set());
      pump();
    });
    session.on('enquire_link', (pdu) => { session.send(pdu.response()); });
    session.on('unbind', (pdu) => { session.send(pdu.response()); dropped(); session.close(); });
    session.on('submit_sm', (pdu) => {
      if (session.socket.destroyed || !live.has(session)) return;
      const id = `R${++counter}`;
      const destination = String(pdu.destination_addr);
      session.send(pdu.response({ message_id: id }));
      accepted.set(destination, (accepted.get(destination) ?? 0) + 1);
      const receipt = { id, destination, source: String(pdu.source_addr) };
      const queue = () => { waiting.push(receipt); pump(); };
      if (options.receiptDelayMs) later(options.receiptDelayMs, queue); else queue();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    accepted,
    acceptedTotal: () => [...accepted.values()].reduce((a, b) => a + b, 0),
    acknowledged: () => acknowledged,
    latenciesMs,
    resent: () => resent,
    binds: () => binds,
    bound: () => live.size,
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      for (const session of live.keys()) session.destroy();
      live.clear();
      await new Promise((r) => server.close(r));
    },
  };
}
