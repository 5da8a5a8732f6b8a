// The carrier port: the only way out to the phone network. Nothing under src/modules imports SMPP code; the
// dispatcher submits through this interface and receipts and inbound messages come back through the handlers.
import { isGsmEncodable } from './smpp/encoding.ts';

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
}

export type SubmitResult =
  /**
   * smscMessageId is normalised (normaliseMessageId) and is the first segment's; a concatenated message gets
   * one receipt per segment, each naming its own segment, so segmentIds lists every segment's id in order.
   */
  | { ok: true; smscMessageId: string; segmentIds?: string[] }
  /** permanent: the SMSC refused this message and will refuse it again; otherwise retry later. */
  | { ok: false; permanent: boolean; errorCode: string; message: string };

export type ReceiptState =
  | 'delivered' | 'undelivered' | 'expired' | 'rejected' | 'deleted' | 'unknown' | 'enroute' | 'accepted';

export interface Receipt {
  /** Normalised SMSC message id (see normaliseMessageId in smpp/receipt.ts). */
  smscMessageId: string;
  state: ReceiptState;
  /** false for ENROUTE and ACCEPTD. */
  final: boolean;
  errorCode: string | null;
  doneAt: Date | null;
}

export interface InboundSms {
  /** E.164 with + when numeric. */
  from: string;
  to: string;
  text: string;
  /** Present when this is one segment of a concatenated message (UDH or sar_* TLVs). */
  part?: { ref: number; total: number; seq: number };
  receivedAt: Date;
}

/**
 * Each handler resolves only after what it was given is committed; the carrier acknowledges the SMSC
 * (deliver_sm_resp) after that, so an SMSC that resends after a crash loses nothing.
 */
export interface CarrierHandlers {
  onReceipt(receipt: Receipt): Promise<void>;
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
