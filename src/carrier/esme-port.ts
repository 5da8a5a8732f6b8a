// The ESME port: what Tasman's SMPP server (carrier/smpp-server) needs of the rest of Tasman to serve customers'
// own SMPP clients. Like carrier.ts it holds no SMPP code, so modules implement it without importing the stack.
import type { CustomerPart } from './carrier.ts';

/** A credential a bind authenticated with, as the server keeps it for the bind's life. */
export interface BoundCredential {
  id: string;
  accountId: string;
  systemId: string;
  maxBinds: number;
  tps: number;
}

export interface BindAttempt {
  systemId: string;
  password: string;
  /** the socket's remote address */
  address: string;
  mode: 'transmitter' | 'receiver' | 'transceiver';
}

/**
 * Why a bind is refused: an unknown (or revoked) system_id, a wrong password, an address outside the credential's
 * allowed_ips, or too many failed binds from the address (answered alike whatever was wrong).
 */
export type BindRefusal = 'unknown_system_id' | 'wrong_password' | 'address_not_allowed' | 'throttled';

export type BindAnswer = { ok: true; credential: BoundCredential } | { ok: false; refusal: BindRefusal };

/** An SMPP address as the ESME wrote it (or as Tasman writes a number: TON 1 NPI 1 without the +). */
export interface EsmeAddress {
  addr: string;
  ton: number;
  npi: number;
}

/** One submit_sm, read: each is one message of Tasman's. */
export interface Submission {
  /** the addresses as written, for the receipt that goes back between them */
  source: EsmeAddress;
  destination: EsmeAddress;
  /** as the send path reads `to`: +E.164 for TON international, else the digits as given (read by the account's country) */
  to: string;
  /** as the send path reads `sender`; null: the account's default */
  from: string | null;
  text: string;
  /** null: send now (quiet hours still apply) */
  sendAt: Date | null;
  /** The end of the validity period (the message expires then, and the carrier is given what remains); null: the carrier's validity. */
  validUntil: Date | null;
  /** a delivery receipt goes back to the ESME (registered_delivery bits 0-1 not 0) */
  receipt: boolean;
  /** the customer's concatenation fields (UDH or sar_* TLVs) when this submit is one part of a long message */
  part?: CustomerPart;
}

/**
 * A refusal is the error code the REST send path answers (`invalid_number`, `sender_not_allowed`,
 * `insufficient_credits`…); the server maps it to a command status (smpp-server/statuses.ts).
 */
export type SubmitAnswer = { ok: true; messageId: string } | { ok: false; code: string; message: string };

export type EsmeReceiptState = 'delivered' | 'undelivered' | 'expired' | 'rejected' | 'deleted' | 'unknown';

/** What goes back to a receiving bind as deliver_sm: a message's receipt, or an inbound message to the account. */
export type EsmeDelivery =
  | {
    kind: 'receipt'; messageId: string; from: EsmeAddress; to: EsmeAddress; state: EsmeReceiptState; errorCode: string | null;
    /** ISO 8601 */
    submittedAt: string; doneAt: string;
    /** the message's text (the receipt carries its first 20 characters) */
    text: string;
  }
  | { kind: 'inbound'; messageId: string; from: EsmeAddress; to: EsmeAddress; text: string };

export interface QueuedDelivery {
  id: string;
  delivery: EsmeDelivery;
}

/**
 * The durable per-credential queue of deliveries. A claim takes the oldest, in order, and holds them for this
 * claimant (token) until `done` (the ESME answered OK) or `release` (put back in their place).
 */
export interface EsmeQueue {
  claim(credentialId: string, token: string, limit: number): Promise<QueuedDelivery[]>;
  done(ids: string[], token: string): Promise<void>;
  release(ids: string[], token: string): Promise<void>;
}

/** A bind as the limits record it. */
export interface BindRecord {
  mode: 'transmitter' | 'receiver' | 'transceiver';
  address: string;
  /** PDUs in and out so far (the operator's list shows them) */
  counts(): { pdusIn: number; pdusOut: number };
}

/** A credential's max_binds and tps. */
export interface BindLimits {
  /** A release to call when the bind closes, or null when the credential holds max_binds already. */
  acquireBind(credential: BoundCredential, bind: BindRecord): Promise<(() => void) | null>;
  /** Whether one more submit_sm fits in the credential's tps this second. */
  takeSubmit(credential: BoundCredential): Promise<boolean>;
}

export interface EsmeGateway {
  queue: EsmeQueue;
  bind(attempt: BindAttempt): Promise<BindAnswer>;
  /** Resolves only once the message, its debit and its ledger row are committed. */
  submit(credential: BoundCredential, submission: Submission): Promise<SubmitAnswer>;
  /** Called for each bind closed, with how long it was open (for the audit log's record of use). */
  unbound?(credential: BoundCredential): void;
}
