import { describe, expect, it } from 'vitest';
import { encodeCustomerPart } from './customer-part.ts';

describe('a part of a customer\'s long message', () => {
  it('keeps the customer\'s UDH or sar_* fields and fits one SMS', () => {
    const udh8 = encodeCustomerPart('a'.repeat(153), { form: 'udh8', ref: 0x42, total: 2, seq: 1 });
    expect(udh8).toMatchObject({ dataCoding: 0, esmClass: 0x40, tlvs: {} });
    expect(udh8.shortMessage.subarray(0, 6).toString('hex')).toBe('050003420201');
    expect(() => encodeCustomerPart('a'.repeat(154), { form: 'udh8', ref: 1, total: 2, seq: 1 })).toThrow(RangeError);
    expect(encodeCustomerPart('a'.repeat(152), { form: 'udh16', ref: 0x1234, total: 2, seq: 2 }).shortMessage.subarray(0, 7).toString('hex')).toBe('06080412340202');
    expect(() => encodeCustomerPart('ж'.repeat(68), { form: 'udh8', ref: 1, total: 2, seq: 1 })).toThrow(RangeError);
    expect(encodeCustomerPart('ж'.repeat(67), { form: 'udh8', ref: 1, total: 2, seq: 1 }).dataCoding).toBe(8);
    const sar = encodeCustomerPart('a'.repeat(160), { form: 'sar', ref: 0x2345, total: 3, seq: 1 });
    expect(sar).toMatchObject({ esmClass: 0, tlvs: { sarMsgRefNum: 0x2345, sarTotalSegments: 3, sarSegmentSeqnum: 1 } });
    expect(() => encodeCustomerPart('a'.repeat(161), { form: 'sar', ref: 1, total: 2, seq: 1 })).toThrow(RangeError);
  });
});
