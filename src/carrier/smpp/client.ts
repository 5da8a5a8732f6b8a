// The ESME side of the link: keeps one bind_transceiver session up (reconnecting with capped, jittered backoff
// after any failure), paces submissions (a token bucket at the bind's rate, SMPP_WINDOW outstanding) and settles
// at the SMSC's pace when it throttles: the rate controller (rate-controller.ts) lowers the bind's rate to what the
// SMSC accepts and probes back up, never above SMPP_TPS. A throttled submit_sm (ESME_RTHROTTLED, ESME_RMSGQFUL)
// waits for its next token and goes again: it is never failed for being throttled, and retrying inside keeps the
// segments of one message together.
import net from 'node:net';
import tls from 'node:tls';
import { LinkError } from './errors.ts';
import { UnstorableDeliveryError } from '../carrier.ts';
import { createSession, type Session } from './session.ts';
import { responseTo } from './codec.ts';
import { isThrottleStatus, Status, type BindCommand, type Pdu, type ShortMessageFields, type ShortMessagePdu, type OptionalParams } from './pdu-types.ts';
import { backoffDelay, createSleeper, createTokenBucket } from './rate.ts';
import { createRateController } from './rate-controller.ts';
import { silentLogger, type Logger } from './logger.ts';
import { bindRefusal, describeLinkFailure } from './link-failure.ts';

export interface SmppClientOptions {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType?: string;
  /** How to bind (default bind_transceiver); a bind_receiver only receives, so it never submits. */
  bind?: BindCommand;
  /** true: TLS with the system's trusted CAs and host name checks; or node tls options (e.g. a private `ca`). */
  tls?: boolean | tls.ConnectionOptions;
  /** Outstanding requests without a response (SMPP_WINDOW). */
  window: number;
  /** submit_sm per second (SMPP_TPS); 0 for no limit. */
  tps: number;
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  enquireLinkIntervalMs?: number;
  reconnect?: { initialMs?: number; maxMs?: number };
  /** How the bind's rate follows the SMSC's throttling (rate-controller.ts); tests pass a short hold. */
  throttle?: { decrease?: number; floor?: number; holdMs?: number };
  /** Called for every deliver_sm; deliver_sm_resp is sent when it settles (ESME_RX_T_APPN if it rejects). */
  onDeliver(pdu: ShortMessagePdu): Promise<void>;
  logger?: Logger;
}

export interface SmppClientState {
  connected: boolean;
  bound: boolean;
  inFlight: number;
  lastError: string | null;
  /** The submits per second the bind runs at: the configured TPS until the SMSC throttles, then the rate it settled at; null when unpaced. */
  tps: number | null;
  /** Throttling answers (ESME_RTHROTTLED, ESME_RMSGQFUL) so far. */
  throttled: number;
  /** The bind runs at the SMSC's pace now: held below its TPS by throttling, or throttled within the last 10 s. */
  throttledNow: boolean;
}

export interface SmppClient {
  /** Starts the connect loop; resolves when bound or after `waitMs`, whichever comes first. */
  start(waitMs?: number): Promise<void>;
  stop(drainMs?: number): Promise<void>;
  /**
   * Sends one submit_sm and resolves with the SMSC's answer (any status; generic_nack comes back as its status).
   * Rejects with LinkError when the link fails under it: not bound within waitMs, connection lost, no response.
   */
  submit(fields: ShortMessageFields, tlvs?: OptionalParams, waitMs?: number): Promise<{ status: number; messageId: string }>;
  /**
   * Sends one query_sm (outside the TPS bucket: it is not a message) and resolves with the SMSC's answer; a
   * generic_nack or a refusal comes back as its status. Rejects with LinkError when the link fails under it.
   */
  query(messageId: string, source: { ton: number; npi: number; addr: string }, waitMs?: number): Promise<QueryAnswer>;
  state(): SmppClientState;
}

export interface QueryAnswer { status: number; messageState: number; finalDate: string; errorCode: number }

export function createSmppClient(options: SmppClientOptions): SmppClient {
  const log = options.logger ?? silentLogger;
  const responseTimeoutMs = options.responseTimeoutMs ?? 30_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const { initialMs = 1_000, maxMs = 60_000 } = options.reconnect ?? {};
  const pace = createRateController({ ceiling: options.tps, ...options.throttle });
  const bucket = createTokenBucket(() => pace.rate());
  const sleeper = createSleeper();

  let stopping = false;
  let running: Promise<void> | undefined;
  let current: Session | undefined;
  let connected = false;
  let lastError: string | null = null;
  const boundWaiters = new Set<() => void>();

  let boundThisRound = false;
  const setBound = (session: Session | undefined): void => {
    current = session;
    if (session) boundThisRound = true;
    if (session) for (const w of [...boundWaiters]) w();
  };

  function waitBound(ms: number): Promise<Session | undefined> {
    if (current?.isOpen()) return Promise.resolve(current);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        boundWaiters.delete(done);
        resolve(current?.isOpen() ? current : undefined);
      };
      const timer = setTimeout(done, ms);
      boundWaiters.add(done);
    });
  }

  function connect(): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const { host, port } = options;
      const useTls = options.tls !== undefined && options.tls !== false;
      const extra = typeof options.tls === 'object' ? options.tls : {};
      const socket = useTls
        ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ...extra })
        : net.connect({ host, port });
      const fail = (err: Error): void => { socket.destroy(); reject(err); };
      const timer = setTimeout(() => fail(new Error(`connect timeout after ${connectTimeoutMs} ms`)), connectTimeoutMs);
      socket.once('error', (err) => { clearTimeout(timer); fail(err); });
      socket.once(useTls ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        socket.setNoDelay(true);
        socket.setKeepAlive(true, 60_000);
        resolve(socket);
      });
    });
  }

  async function onRequest(pdu: Pdu): Promise<Pdu> {
    if (pdu.command !== 'deliver_sm') return responseTo(pdu, Status.ESME_RINVCMDID);
    try {
      await options.onDeliver(pdu);
      return responseTo(pdu, Status.ESME_ROK);
    } catch (err) {
      if (err instanceof UnstorableDeliveryError) {
        // Resending would fail the same way every time: a permanent error makes the SMSC give up on it.
        log.error({ err, sequence: pdu.sequence }, 'smpp deliver_sm can never be stored; refused permanently');
        return responseTo(pdu, Status.ESME_RX_P_APPN);
      }
      // A temporary application error makes the SMSC deliver it again later: nothing is dropped.
      log.warn({ err, sequence: pdu.sequence }, 'smpp deliver_sm handler failed; asking the SMSC to resend');
      return responseTo(pdu, Status.ESME_RX_T_APPN);
    }
  }

  async function runOnce(): Promise<void> {
    const socket = await connect();
    connected = true;
    const session = createSession({
      socket, window: options.window, responseTimeoutMs, onRequest, logger: log,
      enquireLinkIntervalMs: options.enquireLinkIntervalMs ?? 30_000,
    });
    try {
      const resp = await session.request({
        command: options.bind ?? 'bind_transceiver', sequence: 0, status: 0, tlvs: {}, systemId: options.systemId,
        password: options.password, systemType: options.systemType ?? '', interfaceVersion: 0x34, addrTon: 0,
        addrNpi: 0, addressRange: '',
      });
      if (resp.status !== Status.ESME_ROK) throw new Error(bindRefusal(resp.status));
    } catch (err) {
      session.destroy(err as Error);
      throw err;
    }
    log.info({ host: options.host, port: options.port, bind: options.bind ?? 'bind_transceiver' }, 'smpp bound');
    lastError = null;
    setBound(session);
    const reason = await session.closed;
    setBound(undefined);
    if (!stopping) throw reason;
  }

  async function loop(): Promise<void> {
    let attempt = 0;
    while (!stopping) {
      boundThisRound = false;
      let failure: unknown;
      try {
        await runOnce();
      } catch (err) {
        failure = err;
      }
      connected = false;
      setBound(undefined);
      if (stopping) break;
      if (boundThisRound) attempt = 0;
      const delay = backoffDelay(attempt, initialMs, maxMs);
      // One line per failure: the cause in words and the back-off, never a stack trace (the same refusal every
      // few seconds is one fact, and a trace per try buried it).
      const cause = describeLinkFailure(failure);
      lastError = cause;
      log.warn(
        { host: options.host, port: options.port, bind: options.bind ?? 'bind_transceiver', attempt, cause, retryInMs: delay },
        `smpp ${boundThisRound ? 'session lost' : 'connect failed'}: ${cause}; reconnecting in ${(delay / 1000).toFixed(1)} s`,
      );
      attempt++;
      await sleeper.sleep(delay);
    }
  }

  return {
    async start(waitMs = 10_000) {
      if (running) return;
      stopping = false;
      running = loop();
      await waitBound(waitMs);
    },

    async stop(drainMs = 5_000) {
      stopping = true;
      sleeper.wake();
      const session = current;
      if (session) {
        const deadline = Date.now() + drainMs;
        while (session.inFlight() > 0 && Date.now() < deadline && session.isOpen()) await sleeper.sleep(20);
        await session.unbind();
      }
      for (const w of [...boundWaiters]) w();
      await running;
      running = undefined;
    },

    async submit(fields, tlvs = {}, waitMs = 5_000) {
      for (;;) {
        if (!stopping) await bucket.take();
        if (stopping) throw new LinkError('client stopping', 'closed');
        const session = await waitBound(waitMs);
        if (!session) throw new LinkError(`not bound${lastError ? `: ${lastError}` : ''}`, 'not_bound');
        pace.sent();
        const resp = await session.request({ command: 'submit_sm', sequence: 0, status: 0, ...fields, tlvs });
        if (isThrottleStatus(resp.status)) {
          // The SMSC did not take it: it goes again at the lowered rate, behind the submits already waiting.
          if (pace.throttled()) log.info({ host: options.host, port: options.port, tps: pace.settled() }, 'smpp throttled by SMSC; bind rate lowered');
          continue;
        }
        if (resp.status === Status.ESME_ROK) pace.accepted();
        // generic_nack reports a problem with a bare status: a status 0 nack is still not an acceptance.
        const status = resp.command === 'generic_nack' && resp.status === 0 ? Status.ESME_RSYSERR : resp.status;
        const messageId = resp.command === 'submit_sm_resp' ? resp.messageId : '';
        return { status, messageId };
      }
    },

    async query(messageId, source, waitMs = 5_000) {
      const session = await waitBound(waitMs);
      if (!session) throw new LinkError(`not bound${lastError ? `: ${lastError}` : ''}`, 'not_bound');
      const resp = await session.request({
        command: 'query_sm', sequence: 0, status: 0, tlvs: {}, messageId, sourceAddrTon: source.ton, sourceAddrNpi: source.npi, sourceAddr: source.addr,
      });
      if (resp.command === 'query_sm_resp' && resp.status === Status.ESME_ROK) {
        return { status: resp.status, messageState: resp.messageState, finalDate: resp.finalDate, errorCode: resp.errorCode };
      }
      return { status: resp.status === Status.ESME_ROK ? Status.ESME_RSYSERR : resp.status, messageState: 0, finalDate: '', errorCode: 0 };
    },

    state: () => ({
      connected,
      bound: current?.isOpen() ?? false,
      inFlight: current?.inFlight() ?? 0,
      lastError,
      tps: Number.isFinite(pace.rate()) ? Math.round(pace.rate() * 10) / 10 : null,
      throttled: pace.throttles(),
      throttledNow: pace.throttledNow(),
    }),
  };
}
