import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normaliseMessageId, parseReceipt, parseReceiptDate, parseReceiptText, isReceiptEsmClass, queryMessageId, receiptFromQuery } from './receipt.ts';
import { shortMessageDefaults, type OptionalParams, type ShortMessagePdu } from './pdu-types.ts';

const receipt = (text: string, tlvs: OptionalParams = {}, dataCoding = 0): ShortMessagePdu => ({
  command: 'deliver_sm', sequence: 1, status: 0, ...shortMessageDefaults(), esmClass: 4, dataCoding,
  shortMessage: Buffer.from(text, 'latin1'), tlvs,
});

describe('receipt text', () => {
  it('parses the standard form', () => {
    const t = parseReceiptText(
      'id:0012ab sub:001 dlvrd:001 submit date:2401021304 done date:2401021305 stat:DELIVRD err:000 text:Hello stat:x');
    expect(t).toEqual({ id: '0012ab', sub: '001', dlvrd: '001', submitDate: '2401021304', doneDate: '2401021305',
      stat: 'DELIVRD', err: '000', text: 'Hello stat:x' });
  });

  it('tolerates lower-case keys, extra spaces, underscores and missing fields', () => {
    expect(parseReceiptText('ID : 77  Stat:undeliv   Err:  005')).toEqual({ id: '77', stat: 'undeliv', err: '005' });
    expect(parseReceiptText('id:9 submit_date:2401021304 done_date:240102130559 stat:EXPIRED'))
      .toMatchObject({ submitDate: '2401021304', doneDate: '240102130559', stat: 'EXPIRED' });
    expect(parseReceiptText('stat:DELIVRD')).toEqual({ stat: 'DELIVRD' });
  });

  it('parses done date formats as UTC', () => {
    expect(parseReceiptDate('2401021305')?.toISOString()).toBe('2024-01-02T13:05:00.000Z');
    expect(parseReceiptDate('240102130559')?.toISOString()).toBe('2024-01-02T13:05:59.000Z');
    expect(parseReceiptDate('20240102130559')?.toISOString()).toBe('2024-01-02T13:05:59.000Z');
    expect(parseReceiptDate('2413021305')).toBeNull();
    expect(parseReceiptDate('abc')).toBeNull();
    expect(parseReceiptDate(undefined)).toBeNull();
  });
});

describe('parseReceipt', () => {
  it('identifies receipts by esm_class', () => {
    expect(isReceiptEsmClass(0x04)).toBe(true);
    expect(isReceiptEsmClass(0x44)).toBe(true);
    expect(isReceiptEsmClass(0x00)).toBe(false);
    expect(isReceiptEsmClass(0x40)).toBe(false);
    expect(isReceiptEsmClass(0x08)).toBe(false);
  });

  it.each([
    ['DELIVRD', 'delivered', true], ['UNDELIV', 'undelivered', true], ['EXPIRED', 'expired', true],
    ['REJECTD', 'rejected', true], ['DELETED', 'deleted', true], ['UNKNOWN', 'unknown', true],
    ['ENROUTE', 'enroute', false], ['ACCEPTD', 'accepted', true], ['delivrd', 'delivered', true],
    ['BOGUS', 'unknown', true],
  ])('maps stat:%s to %s', (stat, state, final) => {
    expect(parseReceipt(receipt(`id:1 stat:${stat} err:000`))).toMatchObject({ state, final, errorCode: '000' });
  });

  it('prefers the TLVs over the text', () => {
    const r = parseReceipt(receipt('id:999 stat:DELIVRD done date:2401021305', { receiptedMessageId: 'AB12', messageState: 5 }));
    expect(r).toEqual({ smscMessageId: normaliseMessageId('ab12'), state: 'undelivered', final: true, errorCode: null,
      doneAt: new Date('2024-01-02T13:05:00Z'), detail: 'UNDELIVERABLE' });
  });

  it('names the state as the SMSC wrote it in detail: the message_state name, else the stat as written', () => {
    expect(parseReceipt(receipt('id:1 stat:enroute err:000'))?.detail).toBe('ENROUTE');
    expect(parseReceipt(receipt('id:1 stat:ACCEPTD', { messageState: 1 }))?.detail).toBe('ENROUTE');
    expect(parseReceipt(receipt('id:1'))?.detail).toBeUndefined();
  });

  it('reads the text as ASCII whatever data_coding says, and from message_payload', () => {
    expect(parseReceipt(receipt('id:5 stat:DELIVRD', {}, 8))).toMatchObject({ smscMessageId: '5', state: 'delivered' });
    expect(parseReceipt(receipt('', { messagePayload: Buffer.from('id:6 stat:EXPIRED') })))
      .toMatchObject({ smscMessageId: '6', state: 'expired' });
  });

  it('uses network_error_code when there is no err field, and returns undefined without an id', () => {
    expect(parseReceipt(receipt('', { receiptedMessageId: '1', messageState: 5, networkErrorCode: { type: 3, code: 11 } })))
      .toMatchObject({ errorCode: '3:11' });
    expect(parseReceipt(receipt('stat:DELIVRD'))).toBeUndefined();
  });
});

describe('normaliseMessageId', () => {
  it('lower-cases and strips leading zeros', () => {
    expect(normaliseMessageId('000123')).toBe('123');
    expect(normaliseMessageId('0')).toBe('0');
    expect(normaliseMessageId(' ABC-01 ')).toBe('abc-01');
    expect(normaliseMessageId('00ABC-01', 'string')).toBe('abc-01');
  });

  it('makes hex and decimal forms of the same id agree', () => {
    expect(normaliseMessageId('00FF')).toBe(normaliseMessageId('255'));
    expect(normaliseMessageId('1a2b', 'hex')).toBe(normaliseMessageId('6699', 'decimal'));
    // All-digit hex needs the base: auto reads it as decimal.
    expect(normaliseMessageId('1234', 'hex')).toBe(normaliseMessageId('4660', 'decimal'));
    expect(normaliseMessageId('1234')).not.toBe(normaliseMessageId('4660'));
  });

  it('agrees for every value whichever way each side writes it', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n }), fc.boolean(), fc.nat(3), (n, upper, pad) => {
      const hex = '0'.repeat(pad) + (upper ? n.toString(16).toUpperCase() : n.toString(16));
      const dec = '0'.repeat(pad) + n.toString(10);
      expect(normaliseMessageId(hex, 'hex')).toBe(normaliseMessageId(dec, 'decimal'));
      expect(normaliseMessageId(hex, 'hex')).toBe(normaliseMessageId(hex.toLowerCase(), 'hex'));
    }));
  });
});

describe('query_sm ids and answers', () => {
  it('names a stored id in the form the SMSC gave it', () => {
    expect(queryMessageId(normaliseMessageId('00FF0A', 'hex'), 'hex')).toBe('FF0A');
    expect(queryMessageId(normaliseMessageId('12345', 'decimal'), 'decimal')).toBe('12345');
    expect(queryMessageId(normaliseMessageId('msg-7', 'string'), 'string')).toBe('msg-7');
  });

  it('reads a query_sm_resp as a receipt: final states are final, ENROUTE is not', () => {
    expect(receiptFromQuery('1', { messageState: 5, finalDate: '261122103000000+', errorCode: 12 })).toEqual({
      smscMessageId: '1', state: 'undelivered', final: true, errorCode: '012', doneAt: new Date('2026-11-22T10:30:00Z'),
    });
    expect(receiptFromQuery('1', { messageState: 1, finalDate: '', errorCode: 0 })).toMatchObject({ state: 'enroute', final: false, doneAt: null });
  });
});
