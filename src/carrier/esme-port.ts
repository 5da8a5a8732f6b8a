// The ESME port: what Tasman's SMPP server (carrier/smpp-server) needs of the rest of Tasman to serve customers'
// own SMPP clients. Like carrier.ts it holds no SMPP code, so modules implement it without importing the stack.

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

/** One submit_sm, read: each is one message of Tasman's. */
export interface Submission {
  /** as the send path reads `to`: +E.164 for TON international, else the digits as given (read by the account's country) */
  to: string;
  /** as the send path reads `sender`; null: the account's default */
  from: string | null;
  text: string;
  /** null: send now (quiet hours still apply) */
  sendAt: Date | null;
  /** null: the carrier's validity */
  validUntil: Date | null;
  /** a delivery receipt goes back to the ESME (registered_delivery bits 0-1 not 0) */
  receipt: boolean;
  /** the customer's concatenation fields (UDH or sar_* TLVs) when this submit is one part of a long message */
  part?: { ref: number; total: number; seq: number };
}

/**
 * A refusal is the error code the REST send path answers (`invalid_number`, `sender_not_allowed`,
 * `insufficient_credits`…); the server maps it to a command status (smpp-server/statuses.ts).
 */
export type SubmitAnswer = { ok: true; messageId: string } | { ok: false; code: string; message: string };

export interface EsmeGateway {
  bind(attempt: BindAttempt): Promise<BindAnswer>;
  /** Resolves only once the message, its debit and its ledger row are committed. */
  submit(credential: BoundCredential, submission: Submission): Promise<SubmitAnswer>;
  /** Called for each bind closed, with how long it was open (for the audit log's record of use). */
  unbound?(credential: BoundCredential): void;
}
