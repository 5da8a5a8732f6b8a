// The Carrier port over SMPP 3.4: turns SubmitRequests into submit_sm PDUs and deliver_sm PDUs into receipts
// and inbound messages. The link itself (bind, window, pacing, reconnects) lives in client.ts.
import { DEFAULT_CARRIER, type Carrier, type CarrierHandlers, type InboundSms, type SubmitRequest, type SubmitResult } from '../carrier.ts';
import type { SmppClientOptions } from './client.ts';
import { createBindPool, type BindMode, type BindStatus } from './bind-pool.ts';
import { LinkError } from './errors.ts';
import { isPermanentStatus, Npi, shortMessageDefaults, Status, statusName, Ton, type OptionalParams, type ShortMessagePdu } from './pdu-types.ts';
import { decodeShortMessage, segmentText, type ConcatRefBits, type EncodedMessage } from './segment.ts';
import { encodeCustomerPart } from './customer-part.ts';
import { createConcatRefs } from './concat-ref.ts';
import { deliverType, parseReceipt, queryMessageId, receiptFromQuery, type IdBase } from './receipt.ts';
import { createIdForms, type IdFormsStatus } from './id-forms.ts';
import type { InboundDefaultAlphabet } from './encoding.ts';
import { silentLogger } from './logger.ts';

export interface SmppCarrierOptions extends Omit<SmppClientOptions, 'onDeliver' | 'bind'> {
  /** Connections to the SMSC sharing its messages, each with its own window and TPS (default 1). */
  binds?: number;
  /** One bind_transceiver per bind (default), or a bind_transmitter and a bind_receiver. */
  bindMode?: BindMode;
  /** data_coding for texts in the GSM alphabet: 0 (default) or 1 for SMSCs that want IA5. */
  gsmDataCoding?: 0 | 1;
  /** Refusing with ESME_RSYSERR for this long counts as unavailable (routes fail over); default 30 s. */
  failoverAfterMs?: number;
  /** How long start() waits for the first bind before returning (the link keeps trying after). */
  startWaitMs?: number;
  /** How long a submit waits for a bind (during a reconnect) before failing as temporary. */
  submitWaitMs?: number;
  /** How this SMSC writes message ids in submit_sm_resp and in receipts (see normaliseMessageId). */
  messageIds?: { submit?: IdBase; receipt?: IdBase };
  /** What data_coding 0 means in inbound messages from this SMSC. */
  inboundDefaultAlphabet?: InboundDefaultAlphabet;
  /** Concatenation reference width: 8 (IE 0x00, default) or 16 (IE 0x08). */
  concatRefBits?: ConcatRefBits;
  /** This carrier's name, stamped on submit results and receipts (default DEFAULT_CARRIER). */
  name?: string;
  /** validity_period on every submit, in hours (SMPP relative time); the SMSC gives up after it. Default 48. */
  validityHours?: number;
  /** The SMSC answers query_sm: messages without a receipt this long after their submit are queried. */
  querySmAfterMs?: number;
  /** The optional parameter in which this SMSC names each MO with its own id (`vendorId` of the inbound message). */
  moIdTlv?: number;
}

/** An SMPP relative time (YYMMDDhhmmsstnnR) of `hours`, e.g. 48 → "000002000000000R". */
export const relativeValidity = (hours: number): string => relativePeriod(hours * 3600);

/** An SMPP relative time of whole `seconds` (at least one), in days, hours, minutes and seconds: 5400 → "000000013000000R". */
export function relativePeriod(seconds: number): string {
  const s = Math.max(1, Math.floor(seconds));
  const days = Math.floor(s / 86_400);
  if (days > 99) throw new RangeError('validity longer than 99 days');
  const two = (n: number) => String(n).padStart(2, '0');
  return `0000${two(days)}${two(Math.floor(s / 3600) % 24)}${two(Math.floor(s / 60) % 60)}${two(s % 60)}000R`;
}

/** Source address: alphanumeric -> TON 5/NPI 0; +E.164 -> TON 1/NPI 1 without '+'; other digits (short codes) -> TON 0/NPI 1. */
export function sourceAddress(from: string): { ton: number; npi: number; addr: string } {
  if (/^\+\d+$/.test(from)) return { ton: Ton.INTERNATIONAL, npi: Npi.ISDN, addr: from.slice(1) };
  if (/^\d+$/.test(from)) return { ton: Ton.UNKNOWN, npi: Npi.ISDN, addr: from };
  return { ton: Ton.ALPHANUMERIC, npi: Npi.UNKNOWN, addr: from };
}

/** Inbound addresses: international numbers get their '+'. */
export function formatAddress(ton: number, addr: string): string {
  return ton === Ton.INTERNATIONAL && /^\+?\d+$/.test(addr) ? `+${addr.replace(/^\+/, '')}` : addr;
}

type Failure = Extract<SubmitResult, { ok: false }>;

/** One carrier as an operator sees it (GET /admin/carriers, `tasman admin carriers`, metrics). */
export interface CarrierStatus {
  id: string;
  /** The SMSC's host:port. */
  address: string;
  /** bound: some bind is up; down: none is. */
  state: 'bound' | 'down';
  /** Takes new messages: bound, and not refusing with system errors for longer than failoverAfterMs. */
  available: boolean;
  /** Since when every submit has been refused with ESME_RSYSERR (null when the last answer was anything else). */
  systemErrorsSince: string | null;
  binds: BindStatus[];
  /** How it writes message ids (configured or learnt), and receipts whose id matched several messages. */
  receiptIds: IdFormsStatus;
}

/**
 * What a query_sm found: `final` (the state was applied as a receipt would be), `pending` (not final yet: ask
 * again later), or `error` (refused, unknown id, link down: the expiry job ends the message if nothing else does).
 */
export type QueryOutcome = { outcome: 'final' | 'pending'; state: string } | { outcome: 'error'; error: string };

/** The Carrier port over SMPP, with the per-bind view the carrier set and operators read. */
export interface SmppCarrier extends Carrier {
  readonly name: string;
  /** Asks the SMSC for the state of a message it accepted (query_sm); a final state goes to onReceipt. */
  queryReceipt(ref: { smscMessageId: string; from: string }): Promise<QueryOutcome>;
  /** When messages without a receipt are queried (null: the SMSC does not answer query_sm). */
  readonly querySm: { afterMs: number; validityMs: number } | null;
  status(): CarrierStatus;
  available(): boolean;
  /** available(), or refusing but due its trial message (then counted as taken): what routing asks. */
  routable(): boolean;
}

const failure = (permanent: boolean, errorCode: string, message: string): Failure =>
  ({ ok: false, permanent, errorCode, message });

export function createSmppCarrier(options: SmppCarrierOptions): SmppCarrier {
  const log = options.logger ?? silentLogger;
  const submitBase = options.messageIds?.submit ?? 'auto';
  let handlers: CarrierHandlers | undefined;
  const concatBits = options.concatRefBits ?? 8;
  const concatRefs = createConcatRefs(concatBits);
  const carrierName = options.name ?? DEFAULT_CARRIER;
  const validityHours = options.validityHours ?? 48;
  const validityPeriod = relativeValidity(validityHours);
  // A customer's own validity (SMPP server) shortens the carrier's: the SMSC is given what remains of it.
  const validityOf = (request: SubmitRequest): string => (request.validUntil && request.validUntil.getTime() - Date.now() < validityHours * 3_600_000
    ? relativePeriod((request.validUntil.getTime() - Date.now()) / 1000)
    : validityPeriod);
  // Every id in one normalised form; with `auto`, the forms are learnt from the receipts that match (id-forms.ts).
  const idForms = createIdForms(options.messageIds ?? {}, carrierName, log);

  async function onDeliver(pdu: ShortMessagePdu): Promise<void> {
    if (!handlers) throw new Error('carrier not started');
    const type = deliverType(pdu.esmClass);
    if (type !== 'message' && type !== 'receipt' && type !== 'intermediate') {
      // An acknowledgement (SME or user), a conversation abort or a reserved type: about a message, never one from
      // a person, so never an inbound message. Acknowledged, so the SMSC does not resend it.
      log.info({ sequence: pdu.sequence, esmClass: pdu.esmClass, type }, 'deliver_sm that is no message or receipt; acknowledged, not stored');
      return;
    }
    if (type !== 'message') {
      const parsed = parseReceipt(pdu, 'string');
      // An intermediate notification is never final, whatever state it names (both paths agree with an ENROUTE receipt).
      const receipt = parsed && type === 'intermediate' ? { ...parsed, state: 'enroute' as const, final: false } : parsed;
      if (!receipt) {
        // Acknowledged anyway: it names no message, and a nack would make the SMSC resend it forever.
        log.warn({ sequence: pdu.sequence, text: pdu.shortMessage.toString('latin1') }, 'receipt without a message id');
        return;
      }
      const readings = idForms.receiptReadings(receipt.smscMessageId);
      const answer = await handlers.onReceipt({
        ...receipt, smscMessageId: readings[0]!.id, carrier: carrierName, recipient: pdu.sourceAddr,
        ...(readings.length > 1 ? { otherIds: readings.slice(1).map((r) => r.id) } : {}),
      });
      if (answer?.conflict) idForms.conflict(receipt.smscMessageId);
      else if (answer?.matched) idForms.matched(readings.find((r) => r.id === answer.matched) ?? readings[0]!, readings.length);
      return;
    }
    const decoded = decodeShortMessage(pdu, options.inboundDefaultAlphabet);
    const vendorId = options.moIdTlv === undefined ? undefined
      : pdu.tlvs.other?.find((t) => t.tag === options.moIdTlv)?.value.toString('latin1').replace(/\0+$/, '');
    const message: InboundSms = {
      from: formatAddress(pdu.sourceAddrTon, pdu.sourceAddr),
      to: formatAddress(pdu.destAddrTon, pdu.destinationAddr),
      text: decoded.text,
      receivedAt: new Date(),
      carrier: carrierName,
      ...(decoded.part ? { part: decoded.part } : {}),
      ...(vendorId ? { vendorId } : {}),
    };
    await handlers.onInbound(message);
  }

  const pool = createBindPool({ ...options, onDeliver });
  const failoverAfterMs = options.failoverAfterMs ?? 30_000;
  let systemErrorsSince: number | null = null;
  let lastTrialAt = 0;
  const refusing = () => systemErrorsSince !== null && Date.now() - systemErrorsSince >= failoverAfterMs;
  const available = () => pool.bound() && !refusing();
  // A refusing carrier gets no messages, so nothing would ever show it has recovered: one message every
  // failoverAfterMs is let through as a trial. Accepted, the carrier is available again; refused, the message
  // goes back to the queue (a retry), and is routed afresh.
  const routable = (): boolean => {
    if (!pool.bound()) return false;
    if (!refusing()) return true;
    if (Date.now() - lastTrialAt < failoverAfterMs) return false;
    lastTrialAt = Date.now();
    return true;
  };

  async function submit(request: SubmitRequest): Promise<SubmitResult> {
    let encoded: EncodedMessage;
    let tlvs: OptionalParams = {};
    try {
      if (request.part) {
        const one = encodeCustomerPart(request.text, request.part);
        encoded = { dataCoding: one.dataCoding, esmClass: one.esmClass, segments: [one.shortMessage] };
        tlvs = one.tlvs;
      } else {
        // A reference only for a message that needs several segments: most need one, and each reference is
        // remembered per message and per destination.
        encoded = segmentText(request.text, () => concatRefs.refFor(request.id, request.to), concatBits);
      }
    } catch (err) {
      return failure(true, 'message_too_long', (err as Error).message);
    }
    const src = sourceAddress(request.from);
    const base = {
      ...shortMessageDefaults(),
      sourceAddrTon: src.ton, sourceAddrNpi: src.npi, sourceAddr: src.addr,
      destAddrTon: Ton.INTERNATIONAL, destAddrNpi: Npi.ISDN, destinationAddr: request.to.replace(/^\+/, ''),
      esmClass: encoded.esmClass, dataCoding: encoded.dataCoding === 0 ? options.gsmDataCoding ?? 0 : encoded.dataCoding,
      registeredDelivery: request.receipt ? 1 : 0, validityPeriod: validityOf(request),
    };
    if (base.sourceAddr.length > 20 || base.destinationAddr.length > 20) {
      return failure(true, 'invalid_address', 'address longer than 20 characters');
    }
    // Every segment of a message goes through one bind: the bound one with the most room in its window, where an
    // accepted segment keeps its slot until the dispatcher has recorded its id (`settle`, decision 0067).
    const need = encoded.segments.length;
    const bind = await pool.acquire(need);
    bind.pending += 1;
    const results = await Promise.allSettled(
      encoded.segments.map((shortMessage) => bind.client.submit({ ...base, shortMessage }, tlvs, options.submitWaitMs)))
      .finally(() => { bind.pending -= 1; });

    const ids: string[] = [];
    const accepted: Array<{ seq: number; smscMessageId: string }> = [];
    let temporary: Failure | undefined;
    let permanent: Failure | undefined;
    for (const [seq, r] of results.entries()) {
      if (r.status === 'rejected') {
        const err = r.reason as Error;
        temporary ??= failure(false, err instanceof LinkError ? err.code : 'carrier_error', err.message);
      } else if (r.value.status !== Status.ESME_ROK) {
        if (r.value.status === Status.ESME_RSYSERR) systemErrorsSince ??= Date.now();
        const name = statusName(r.value.status);
        const f = failure(isPermanentStatus(r.value.status), name, `SMSC refused submit_sm: ${name}`);
        if (isPermanentStatus(r.value.status)) permanent ??= f; else temporary ??= f;
      } else {
        systemErrorsSince = null;
        const smscMessageId = idForms.submitId(r.value.messageId);
        ids.push(smscMessageId);
        accepted.push({ seq, smscMessageId });
      }
    }
    // One permanently refused segment sinks the message whatever happened to the others: resending won't help.
    const failed = permanent ?? temporary;
    // Accepted segments keep their slots until the caller has recorded their ids, when it says it will.
    let held = request.settles ? accepted.length : 0;
    pool.free(bind, need - held);
    const settle = () => { pool.free(bind, held); held = 0; };
    bind.submitted += accepted.length;
    bind.rate.add(accepted.length);
    if (failed) bind.errors += 1;
    if (failed) {
      if (accepted.length === 0) return failed;
      // The recipient may already have these parts: the message must not be resent whole (see README).
      log.warn({ id: request.id, accepted: ids, errorCode: failed.errorCode }, 'some segments were accepted before a failure');
      return { ...failed, partial: { segments: encoded.segments.length, accepted }, carrier: carrierName, bind: bind.index, settle };
    }
    log.debug({ id: request.id, smscIds: ids, segments: ids.length }, 'submitted');
    return { ok: true, smscMessageId: ids[0] ?? '', ...(ids.length > 1 ? { segmentIds: ids } : {}), carrier: carrierName, bind: bind.index, settle };
  }

  async function queryReceipt(ref: { smscMessageId: string; from: string }): Promise<QueryOutcome> {
    if (!handlers) throw new Error('carrier not started');
    const bind = pool.pick();
    let answer;
    try {
      answer = await bind.client.query(queryMessageId(ref.smscMessageId, submitBase), sourceAddress(ref.from), options.submitWaitMs);
    } catch (err) {
      return { outcome: 'error', error: (err as Error).message };
    }
    if (answer.status !== Status.ESME_ROK) return { outcome: 'error', error: `SMSC refused query_sm: ${statusName(answer.status)}` };
    const receipt = receiptFromQuery(ref.smscMessageId, answer);
    if (!receipt.final) return { outcome: 'pending', state: receipt.state };
    // Applied exactly as a receipt from this carrier: the message's final status, its receipt record, the webhook.
    await handlers.onReceipt({ ...receipt, carrier: carrierName });
    return { outcome: 'final', state: receipt.state };
  }

  return {
    name: carrierName,
    queryReceipt,
    querySm: options.querySmAfterMs ? { afterMs: options.querySmAfterMs, validityMs: (options.validityHours ?? 48) * 3_600_000 } : null,
    async start(h) {
      handlers = h;
      await pool.start(options.startWaitMs);
    },
    submit,
    health: () => pool.health(),
    available,
    routable,
    status: () => ({
      id: carrierName, address: `${options.host}:${options.port}`, state: pool.bound() ? 'bound' : 'down', available: available(),
      systemErrorsSince: systemErrorsSince === null ? null : new Date(systemErrorsSince).toISOString(), binds: pool.status(),
      receiptIds: idForms.status(),
    }),
    stop: () => pool.stop(),
  };
}
