import { describe, expect, it } from 'vitest';
import { decodePdu, encodePdu } from '../smpp/codec.ts';
import { parseReceipt } from '../smpp/receipt.ts';
import { decodeShortMessage } from '../smpp/segment.ts';
import type { ShortMessagePdu } from '../smpp/pdu-types.ts';
import { deliverSmFor, receiptText } from './deliver.ts';

const from = { addr: '61412345678', ton: 1, npi: 1 };
const to = { addr: 'MyBrand', ton: 5, npi: 0 };
const receipt = {
  kind: 'receipt' as const, messageId: '01938f2c-88a1-7f40-9e3b-1d5c7a2e6b94', from, to, state: 'undelivered' as const, errorCode: '1',
  submittedAt: '2026-11-20T03:15:42Z', doneAt: '2026-11-20T03:16:02Z', text: 'Your code is 1234 – thanks for waiting',
};

describe('deliver_sm for an ESME', () => {
  it('writes the standard receipt text, which our own receipt parser reads back', () => {
    expect(receiptText(receipt)).toBe('id:01938f2c-88a1-7f40-9e3b-1d5c7a2e6b94 sub:001 dlvrd:000 submit date:2611200315 done date:2611200316 stat:UNDELIV err:001 text:Your code is 1234 ? ');
    const pdu = decodePdu(encodePdu(deliverSmFor(receipt))) as ShortMessagePdu;
    expect(pdu).toMatchObject({ esmClass: 0x04, sourceAddr: '61412345678', destinationAddr: 'MyBrand', destAddrTon: 5 });
    expect(pdu.tlvs).toMatchObject({ receiptedMessageId: receipt.messageId, messageState: 5 });
    // Tasman's own carrier link reads it as any SMSC's receipt (ids normalised: leading zeros dropped).
    expect(parseReceipt(pdu, 'string')).toMatchObject({ smscMessageId: receipt.messageId.replace(/^0+/, ''), state: 'undelivered', errorCode: '001' });
  });

  it('sends inbound text in GSM or UCS-2, and long text whole in message_payload', () => {
    const inbound = { kind: 'inbound' as const, messageId: 'x', from, to: { addr: '61480000000', ton: 1, npi: 1 } };
    for (const text of ['Yes please', 'Kia ora – ngā mihi 👋', 'long '.repeat(80)]) {
      const pdu = decodePdu(encodePdu(deliverSmFor({ ...inbound, text }))) as ShortMessagePdu;
      expect(pdu.esmClass).toBe(0);
      expect(decodeShortMessage(pdu).text).toBe(text);
    }
    expect((deliverSmFor({ ...inbound, text: 'long '.repeat(80) }).tlvs.messagePayload)?.length).toBe(400);
  });
});
