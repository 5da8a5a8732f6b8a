// How one carrier writes its message ids, learnt from what it sends (docs/decisions/0061-receipt-id-forms-learnt-per-carrier.md).
// Every id is stored and looked up in one normalised form (normaliseMessageId): numbers as their decimal value.
// With `auto`, an id made only of the digits 0-9 has two readings, decimal and hex, and an SMSC may answer
// submit_sm in hex and write receipts in decimal. Ids with a letter a-f prove hex; the rest is learnt from the
// receipts that match exactly one message.
import { normaliseMessageId, type IdBase } from './receipt.ts';
import type { Logger } from './logger.ts';

/** One reading of a receipt's id: the stored form it would match, and what a match proves. */
export interface IdReading {
  id: string;
  /** The receipt id's base under this reading. */
  receipt: 'hex' | 'decimal' | 'string';
  /** This reading matches a submit id that was all digits but hex, stored as if decimal before that was known. */
  submitHex: boolean;
}

/** What an operator reads of a carrier's ids (GET /admin/carriers, /metrics). */
export interface IdFormsStatus {
  /** The forms in use: configured, learnt, or still `auto`. */
  submit: IdBase;
  receipt: IdBase;
  /** Receipts whose id matched several messages under its readings (none applied), and one such id. */
  conflicts: number;
  conflictSample: string | null;
}

// Consecutive all-digit submit ids after which the SMSC is taken to write them in decimal: hex ids (random or
// counters) show a letter long before this.
const DECIMAL_AFTER = 64;
const DIGITS = /^[0-9]+$/;
const HEX = /^[0-9a-f]+$/;

export function createIdForms(configured: { submit?: IdBase; receipt?: IdBase }, carrier: string, log: Logger) {
  let submit: IdBase = configured.submit ?? 'auto';
  let receipt: IdBase = configured.receipt ?? 'auto';
  let digitsOnly = 0;
  let conflicts = 0;
  let conflictSample: string | null = null;

  const learn = (side: 'submit' | 'receipt', base: IdBase, why: string): void => {
    if (side === 'submit') submit = base; else receipt = base;
    log.info({ carrier, [`${side}IdBase`]: base, why }, `carrier ${carrier}: ${side} ids read as ${base} (learnt; set ${side}_id_base to fix it)`);
  };

  return {
    /** The stored form of a submit_sm_resp id. */
    submitId(raw: string): string {
      const s = raw.trim().toLowerCase();
      if (submit === 'auto') {
        if (HEX.test(s) && !DIGITS.test(s)) learn('submit', 'hex', `submit id ${raw} has a hex letter`);
        else if (DIGITS.test(s) && ++digitsOnly >= DECIMAL_AFTER) learn('submit', 'decimal', `${DECIMAL_AFTER} submit ids in a row had only digits`);
      }
      return normaliseMessageId(raw, submit);
    },

    /**
     * A receipt id's readings, the likeliest first. One reading once the forms are known (configured or learnt);
     * while they are not, an all-digit id has several, and the receipt is applied only when exactly one message
     * matches (the receipt service), after which `matched` learns from it.
     */
    receiptReadings(raw: string): IdReading[] {
      const s = raw.trim().toLowerCase();
      if (receipt === 'auto' && HEX.test(s) && !DIGITS.test(s)) learn('receipt', 'hex', `receipt id ${raw} has a hex letter`);
      const bases: Array<'hex' | 'decimal'> = receipt === 'hex' || receipt === 'decimal' ? [receipt]
        : receipt === 'auto' && DIGITS.test(s) ? ['decimal', 'hex'] : [];
      if (bases.length === 0) return [{ id: normaliseMessageId(raw, receipt), receipt: 'string', submitHex: false }];
      const readings: IdReading[] = [];
      const add = (r: IdReading) => { if (!readings.some((x) => x.id === r.id)) readings.push(r); };
      for (const base of bases) {
        if (!HEX.test(s) || (base === 'decimal' && !DIGITS.test(s))) continue;
        const value = normaliseMessageId(s, base);
        add({ id: value, receipt: base, submitHex: false });
        // A hex submit id without a letter was stored as its decimal reading while the submit form was unknown.
        const asHex = BigInt(value).toString(16);
        if (submit === 'auto' && DIGITS.test(asHex)) add({ id: normaliseMessageId(asHex, 'decimal'), receipt: base, submitHex: true });
      }
      return readings.length > 0 ? readings : [{ id: normaliseMessageId(raw, receipt), receipt: 'string', submitHex: false }];
    },

    /** A receipt with several readings matched exactly one message under `reading`: the forms are now known. */
    matched(reading: IdReading, of: number): void {
      if (of < 2) return;
      if (receipt === 'auto' && reading.receipt !== 'string') learn('receipt', reading.receipt, 'a receipt matched exactly one message under that reading');
      if (reading.submitHex && submit === 'auto') learn('submit', 'hex', 'a receipt matched a submit id only as hex');
    },

    /** A receipt whose readings matched several messages: none is applied. Logged the first time. */
    conflict(raw: string): void {
      conflicts++;
      if (conflictSample !== null) return;
      conflictSample = raw;
      log.warn({ carrier, smscId: raw }, `carrier ${carrier}: receipt id ${raw} matches several messages as hex and as decimal; not applied (set receipt_id_base and submit_id_base for this carrier)`);
    },

    status: (): IdFormsStatus => ({ submit, receipt, conflicts, conflictSample }),
  };
}

export type IdForms = ReturnType<typeof createIdForms>;
