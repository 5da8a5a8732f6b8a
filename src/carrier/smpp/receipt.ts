// Delivery receipts (deliver_sm with esm_class receipt bits) and the message id normalisation that lets a
// receipt find the message it reports on.
import type { Receipt, ReceiptState } from '../carrier.ts';
import { EsmClass, MessageState, type ShortMessagePdu } from './pdu-types.ts';

/** How an SMSC writes its message ids: in submit_sm_resp and in receipts they can differ. */
export type IdBase = 'auto' | 'hex' | 'decimal' | 'string';

/**
 * The canonical form of an SMSC message id. The dispatcher stores normaliseMessageId(submit id, submitBase) and
 * the receipt side computes normaliseMessageId(receipt id, receiptBase); equal strings mean the same message.
 *
 * Rule: trim and lower-case. Then
 *  - 'hex':     all hex digits -> the decimal value of the hex number (so hex "00ff" and decimal "255" agree);
 *  - 'decimal': all decimal digits -> leading zeros stripped;
 *  - 'auto':    all decimal digits -> as 'decimal'; hex digits with at least one a-f -> as 'hex';
 *  - anything else (or 'string') -> leading zeros stripped, otherwise unchanged.
 * 'auto' cannot tell a hex id that happens to be all digits from a decimal one, so an SMSC that answers submits
 * in hex and writes receipts in decimal (or the reverse) must be configured with explicit bases.
 */
export function normaliseMessageId(id: string, base: IdBase = 'auto'): string {
  const s = id.trim().toLowerCase();
  const isDecimal = /^[0-9]+$/.test(s);
  const isHex = /^[0-9a-f]+$/.test(s);
  if (base === 'hex' && isHex) return BigInt(`0x${s}`).toString(10);
  if (base === 'auto' && isHex && !isDecimal) return BigInt(`0x${s}`).toString(10);
  if ((base === 'decimal' || base === 'auto') && isDecimal) return BigInt(s).toString(10);
  return s.replace(/^0+(?=.)/, '');
}

export const isReceiptEsmClass = (esmClass: number): boolean =>
  (esmClass & EsmClass.RECEIPT_MASK) === EsmClass.SMSC_RECEIPT;

/** What a deliver_sm is, by the message type in bits 2–5 of esm_class (SMPP 3.4 §5.2.12). */
export type DeliverType = 'message' | 'receipt' | 'sme_ack' | 'user_ack' | 'conversation_abort' | 'intermediate' | 'reserved';

/**
 * The message type of a deliver_sm's esm_class: bits 2–5 only (mask 0x3C), so the UDHI (0x40) and reply-path (0x80)
 * bits and the messaging mode (bits 0–1) never change what it is.
 */
export function deliverType(esmClass: number): DeliverType {
  switch (esmClass & EsmClass.RECEIPT_MASK) {
    case 0x00: return 'message';
    case 0x04: return 'receipt';
    case 0x08: return 'sme_ack';
    case 0x10: return 'user_ack';
    case 0x18: return 'conversation_abort';
    case 0x20: return 'intermediate';
    default: return 'reserved';
  }
}

// ACCEPTD (message_state 6) is final in SMPP 3.4 Appendix B: the message was read on the subscriber's behalf.
const FINAL_STATES = new Set<ReceiptState>(['delivered', 'undelivered', 'expired', 'rejected', 'deleted', 'unknown', 'accepted']);

const STATE_BY_MESSAGE_STATE: Record<number, ReceiptState> = {
  [MessageState.ENROUTE]: 'enroute',
  [MessageState.DELIVERED]: 'delivered',
  [MessageState.EXPIRED]: 'expired',
  [MessageState.DELETED]: 'deleted',
  [MessageState.UNDELIVERABLE]: 'undelivered',
  [MessageState.ACCEPTED]: 'accepted',
  [MessageState.UNKNOWN]: 'unknown',
  [MessageState.REJECTED]: 'rejected',
};

const STATE_BY_STAT: Record<string, ReceiptState> = {
  DELIVRD: 'delivered', DELIVERED: 'delivered',
  UNDELIV: 'undelivered', UNDELIVERABLE: 'undelivered', UNDELIVERED: 'undelivered',
  EXPIRED: 'expired',
  REJECTD: 'rejected', REJECTED: 'rejected',
  DELETED: 'deleted',
  UNKNOWN: 'unknown',
  ENROUTE: 'enroute',
  ACCEPTD: 'accepted', ACCEPTED: 'accepted',
};

export const stateFromStat = (stat: string): ReceiptState => STATE_BY_STAT[stat.trim().toUpperCase()] ?? 'unknown';

/** The name SMPP 3.4 gives a message_state value (ENROUTE, DELIVERED, …), or undefined. */
const MESSAGE_STATE_NAMES = new Map<number, string>(Object.entries(MessageState).map(([name, v]) => [v, name] as const).reverse());
const messageStateName = (state: number | undefined): string | undefined =>
  state === undefined ? undefined : MESSAGE_STATE_NAMES.get(state);

export const stateFromMessageState = (state: number): ReceiptState => STATE_BY_MESSAGE_STATE[state] ?? 'unknown';

export interface ReceiptText {
  id?: string;
  sub?: string;
  dlvrd?: string;
  submitDate?: string;
  doneDate?: string;
  stat?: string;
  err?: string;
  text?: string;
}

// Compiled once: a RegExp per field per receipt was most of the parse.
const RECEIPT_FIELDS = ([
  ['id', 'id'], ['sub', 'sub'], ['dlvrd', 'dlvrd'], ['submitDate', 'submit[ _]?date'], ['doneDate', 'done[ _]?date'],
  ['stat', 'stat'], ['err', 'err'],
] as const).map(([key, name]) => [key, new RegExp(`(?:^|\\s)${name}\\s*:\\s*(\\S*)`, 'i')] as const);

/**
 * Parses the informal "id:… sub:… dlvrd:… submit date:… done date:… stat:… err:… text:…" receipt text. Keys are
 * matched case-insensitively with any spacing around the colon; `text:` runs to the end, so the other keys are
 * only looked for before it (a message text containing "stat:" cannot confuse the parser).
 */
export function parseReceiptText(raw: string): ReceiptText {
  const textAt = raw.search(/\btext\s*:/i);
  const head = textAt === -1 ? raw : raw.slice(0, textAt);
  const out: ReceiptText = {};
  for (const [key, pattern] of RECEIPT_FIELDS) {
    const value = pattern.exec(head)?.[1];
    if (value) out[key] = value;
  }
  if (textAt !== -1) out.text = raw.slice(textAt).replace(/^text\s*:\s?/i, '');
  return out;
}

/** YYMMDDhhmm, YYMMDDhhmmss or YYYYMMDDhhmmss, read as UTC (receipts carry no zone). */
export function parseReceiptDate(value: string | undefined): Date | null {
  if (!value || !/^\d+$/.test(value)) return null;
  let digits = value;
  if (digits.length === 10 || digits.length === 12) digits = `20${digits}`;
  if (digits.length === 12) digits += '00';
  if (digits.length !== 14) return null;
  const [y, mo, d, h, mi, s] = [0, 4, 6, 8, 10, 12].map((at, i) => Number(digits.slice(at, at + (i === 0 ? 4 : 2))));
  const date = new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
  return Number.isNaN(date.getTime()) || date.getUTCMonth() !== (mo as number) - 1 ? null : date;
}

/**
 * Turns a receipt deliver_sm into a Receipt, or undefined when it names no message (nothing to update; the
 * caller still acknowledges it, or the SMSC would resend it forever). TLVs come first, the text second.
 */
export function parseReceipt(pdu: ShortMessagePdu, idBase: IdBase = 'auto'): Receipt | undefined {
  // The text is ASCII whatever data_coding says; Latin-1 never fails to decode.
  const text = parseReceiptText((pdu.tlvs.messagePayload ?? pdu.shortMessage).toString('latin1'));
  const rawId = pdu.tlvs.receiptedMessageId || text.id;
  if (!rawId) return undefined;
  const state = pdu.tlvs.messageState !== undefined
    ? stateFromMessageState(pdu.tlvs.messageState)
    : text.stat !== undefined ? stateFromStat(text.stat) : 'unknown';
  const net = pdu.tlvs.networkErrorCode;
  const errorCode = text.err ?? (net ? `${net.type}:${net.code}` : null);
  // As `state` is read: the message_state TLV first, the text's stat second.
  const detail = messageStateName(pdu.tlvs.messageState) ?? (text.stat?.trim().toUpperCase() || undefined);
  return {
    smscMessageId: normaliseMessageId(rawId, idBase),
    state,
    final: FINAL_STATES.has(state),
    errorCode,
    doneAt: parseReceiptDate(text.doneDate),
    ...(detail ? { detail } : {}),
  };
}

/**
 * The id to name in query_sm for a stored (normalised) id: the form the SMSC gave it, as far as normalisation
 * kept it. 'hex' ids go back as upper-case hex (leading zeros, if the SMSC wrote any, are not kept: SMSCs read
 * their ids as numbers); 'decimal' ids as decimal; 'string' ids as stored (lower case). 'auto' cannot say which
 * base an all-digit id had, so query_sm needs an explicit submit_id_base (carriers-config.ts checks it).
 */
export function queryMessageId(stored: string, base: IdBase): string {
  if (base === 'hex' && /^[0-9]+$/.test(stored)) return BigInt(stored).toString(16).toUpperCase();
  return stored;
}

/** A query_sm_resp's answer as a Receipt (final or not); final_date is YYMMDDhhmmss plus tenths and zone. */
export function receiptFromQuery(smscMessageId: string, answer: { messageState: number; finalDate: string; errorCode: number }): Receipt {
  const state = stateFromMessageState(answer.messageState);
  return {
    smscMessageId, state, final: FINAL_STATES.has(state),
    errorCode: answer.errorCode === 0 ? null : String(answer.errorCode).padStart(3, '0'),
    doneAt: parseReceiptDate(answer.finalDate.slice(0, 12)),
  };
}
