// The carrier port: the only way out to the phone network. Nothing under src/modules imports SMPP code; the
// dispatcher submits through this interface and receipts and inbound messages come back through the handlers.
import { isGsmEncodable } from './gsm-alphabet.ts';
import { segmentCount } from './smpp/segment.ts';

export interface SubmitRequest {
  /** Tasman message id (for logs and correlation only). */
  id: string;
  /** E.164 number (with +) or an alphanumeric Sender ID. */
  from: string;
  /** E.164 number with +. */
  to: string;
  text: string;
  /** Ask the SMSC for a delivery receipt (registered_delivery = 1). */
  receipt: boolean;
  /** The sending account: routes may pin an account to a carrier. */
  accountId?: string;
  /**
   * A part of the customer's own long message (submitted over Tasman's SMPP server): sent as one segment with the
   * customer's concatenation fields unchanged, so the handset joins it with its siblings.
   */
  part?: CustomerPart;
  /**
   * The end of the validity period the customer gave the message (submit_sm over Tasman's SMPP server): the SMSC
   * is given what remains of it, if that is shorter than the carrier's own validity.
   */
  validUntil?: Date;
  /**
   * The caller records the accepted ids and then calls the result's `settle`: until then the accepted submits keep
   * their slots in the bind's window (the dispatcher). Without it the slots free when the SMSC answers.
   */
  settles?: boolean;
}

/** A customer's concatenation fields: a UDH with IE 0x00 (8-bit reference) or 0x08 (16-bit), or the sar_* TLVs. */
export interface CustomerPart {
  form: 'udh8' | 'udh16' | 'sar';
  ref: number;
  total: number;
  seq: number;
}

/**
 * The name of a carrier (one SMSC and its binds). SMSC message ids are unique only per SMSC, so every stored id
 * is stored with the carrier that gave it; with one carrier configured it is this default.
 */
export const DEFAULT_CARRIER = 'default';

/** Segments of a multi-part message the SMSC accepted before it refused (or lost) another one. */
export interface PartialSubmit {
  /** How many segments the message was split into. */
  segments: number;
  /** The accepted ones: their position (0-based) and normalised SMSC id. */
  accepted: Array<{ seq: number; smscMessageId: string }>;
}

export type SubmitResult =
  /**
   * smscMessageId is normalised (normaliseMessageId) and is the first segment's; a concatenated message gets
   * one receipt per segment, each naming its own segment, so segmentIds lists every segment's id in order.
   * carrier: the carrier that gave the ids (DEFAULT_CARRIER when absent).
   */
  | { ok: true; smscMessageId: string; segmentIds?: string[]; carrier?: string; bind?: number; settle?: Settle }
  /**
   * permanent: the SMSC refused this message and will refuse it again; otherwise retry later. `partial` when some
   * segments were accepted: the recipient may have part of the message, so it must not be resent as a whole.
   */
  | { ok: false; permanent: boolean; errorCode: string; message: string; partial?: PartialSubmit; carrier?: string; bind?: number; settle?: Settle };

/**
 * Call once the accepted ids are committed (or given up): until then the accepted submits keep their slots in the
 * bind's window, so a crash resends at most a window per bind (docs/decisions/0067-duplicates-bounded-by-the-window.md).
 */
export type Settle = () => void;

export type ReceiptState =
  | 'delivered' | 'undelivered' | 'expired' | 'rejected' | 'deleted' | 'unknown' | 'enroute' | 'accepted';

export interface Receipt {
  /** Normalised SMSC message id (see normaliseMessageId in smpp/receipt.ts). */
  smscMessageId: string;
  state: ReceiptState;
  /** false only for ENROUTE (ACCEPTD is final in SMPP 3.4, Appendix B). */
  final: boolean;
  errorCode: string | null;
  doneAt: Date | null;
  /** The carrier it came from (DEFAULT_CARRIER when absent): ids are matched within one carrier. */
  carrier?: string;
  /** The id's other readings while the carrier's id forms are unknown (smpp/id-forms.ts): one applies only when exactly one message matches. */
  otherIds?: string[];
  /** The handset it reports on (the deliver_sm's source_addr). */
  recipient?: string;
  /** The state as the SMSC named it (the text's `stat:`, else the message_state TLV's name), e.g. ENROUTE. */
  detail?: string;
}

/** Which reading of a receipt's id matched a message (null: none yet, parked), or that several did (a conflict). */
export type ReceiptAnswer = { matched: string | null; conflict?: true } | undefined;

/** How a part's octets are read: GSM 03.38 unpacked septets, UCS-2 big-endian, or Latin-1. */
export type TextCoding = 'gsm' | 'ucs2' | 'latin1';

export interface InboundPart {
  ref: number;
  total: number;
  seq: number;
  /**
   * The part's text octets (UDH removed) and how to read them. Parts are joined as octets, then decoded
   * (joinInboundParts): a UCS-2 surrogate pair or a GSM escape (0x1B) may straddle two parts.
   */
  octets: Buffer;
  coding: TextCoding;
}

export interface InboundSms {
  /** E.164 with + when numeric. */
  from: string;
  to: string;
  /** The text; for a part, this part decoded on its own (only right once joined with its siblings' octets). */
  text: string;
  /** Present when this is one segment of a concatenated message (UDH or sar_* TLVs). */
  part?: InboundPart;
  receivedAt: Date;
  /** The carrier it came from (DEFAULT_CARRIER when absent). */
  carrier?: string;
  /** The SMSC's own id for this MO, where the carrier's configuration names the TLV carrying it: duplicates are recognised by it. */
  vendorId?: string;
}

/**
 * Thrown by a handler for something that can never be stored however often it is delivered (text with a NUL,
 * a value out of range): the carrier answers with a permanent error so the SMSC stops resending it. Any other
 * failure is temporary and the SMSC delivers again later.
 */
export class UnstorableDeliveryError extends Error {
  override name = 'UnstorableDeliveryError';
  readonly permanent = true;
}

/**
 * Each handler resolves only after what it was given is committed; the carrier acknowledges the SMSC
 * (deliver_sm_resp) after that, so an SMSC that resends after a crash loses nothing.
 */
export interface CarrierHandlers {
  onReceipt(receipt: Receipt): Promise<ReceiptAnswer | void>;
  onInbound(message: InboundSms): Promise<void>;
}

export interface CarrierHealth {
  connected: boolean;
  bound: boolean;
  inFlight: number;
  lastError: string | null;
}

export interface Carrier {
  start(handlers: CarrierHandlers): Promise<void>;
  submit(request: SubmitRequest): Promise<SubmitResult>;
  health(): CarrierHealth;
  stop(): Promise<void>;
}

/**
 * How the link will encode a text: GSM 03.38 when every character has a septet, else UCS-2. Part of the port so
 * that modules (message previews) can say it without importing SMPP code.
 */
export const textEncoding = (text: string): 'gsm7' | 'ucs2' => (isGsmEncodable(text) ? 'gsm7' : 'ucs2');

/** How many SMS segments the link will submit for a text (GSM-7 160/153, UCS-2 70/67 characters). */
export const textSegments = (text: string): number => segmentCount(text);
