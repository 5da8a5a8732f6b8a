import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createFrameSplitter, decodePdu, encodePdu, MalformedPduError } from './codec.ts';
import { isPermanentStatus, isTemporaryStatus, shortMessageDefaults, Status, type Pdu } from './pdu-types.ts';

const sm = shortMessageDefaults();

const samples: Pdu[] = [
  { command: 'bind_transceiver', sequence: 1, status: 0, tlvs: {}, systemId: 'tasman', password: 'secret',
    systemType: 'SMS', interfaceVersion: 0x34, addrTon: 0, addrNpi: 0, addressRange: '' },
  { command: 'bind_transmitter', sequence: 2, status: 0, tlvs: {}, systemId: 'a', password: 'b', systemType: '',
    interfaceVersion: 0x34, addrTon: 1, addrNpi: 1, addressRange: '^614' },
  { command: 'bind_receiver', sequence: 3, status: 0, tlvs: {}, systemId: 'a', password: '', systemType: '',
    interfaceVersion: 0x34, addrTon: 0, addrNpi: 0, addressRange: '' },
  { command: 'bind_transceiver_resp', sequence: 1, status: 0, systemId: 'SMSC', tlvs: { scInterfaceVersion: 0x34 } },
  { command: 'bind_transmitter_resp', sequence: 2, status: 0, systemId: 'SMSC', tlvs: {} },
  { command: 'bind_receiver_resp', sequence: 3, status: 0, systemId: 'SMSC', tlvs: {} },
  { command: 'submit_sm', sequence: 4, status: 0, ...sm, sourceAddrTon: 5, sourceAddr: 'Tasman', destAddrTon: 1,
    destAddrNpi: 1, destinationAddr: '61412345678', registeredDelivery: 1, shortMessage: Buffer.from('hello'),
    tlvs: { sarMsgRefNum: 7, sarTotalSegments: 2, sarSegmentSeqnum: 1, userMessageReference: 9, sourcePort: 1,
      destPort: 2, other: [{ tag: 0x1400, value: Buffer.from([1, 2, 3]) }] } },
  { command: 'submit_sm_resp', sequence: 4, status: 0, messageId: '5f3a', tlvs: {} },
  { command: 'deliver_sm', sequence: 5, status: 0, ...sm, esmClass: 4, shortMessage: Buffer.alloc(0),
    tlvs: { receiptedMessageId: '5f3a', messageState: 2, networkErrorCode: { type: 3, code: 0x1234 },
      messagePayload: Buffer.from('id:5f3a stat:DELIVRD') } },
  { command: 'deliver_sm_resp', sequence: 5, status: 0, messageId: '', tlvs: {} },
  { command: 'enquire_link', sequence: 6, status: 0, tlvs: {} },
  { command: 'enquire_link_resp', sequence: 6, status: 0, tlvs: {} },
  { command: 'unbind', sequence: 7, status: 0, tlvs: {} },
  { command: 'unbind_resp', sequence: 7, status: 0, tlvs: {} },
  { command: 'generic_nack', sequence: 8, status: Status.ESME_RINVCMDID, tlvs: {} },
  { command: 'query_sm', sequence: 9, status: 0, messageId: 'AB12', sourceAddrTon: 5, sourceAddrNpi: 0, sourceAddr: 'Tasman', tlvs: {} },
  { command: 'query_sm_resp', sequence: 9, status: 0, messageId: 'AB12', finalDate: '261122100000000+', messageState: 2, errorCode: 0, tlvs: {} },
];

describe('codec', () => {
  it.each(samples.map((p) => [p.command, p] as const))('round-trips %s', (_name, pdu) => {
    const bytes = encodePdu(pdu);
    expect(bytes.readUInt32BE(0)).toBe(bytes.length);
    expect(decodePdu(bytes)).toEqual(pdu);
    expect(encodePdu(decodePdu(bytes))).toEqual(bytes);
  });

  it('encodes enquire_link exactly as the spec lays it out', () => {
    const bytes = encodePdu({ command: 'enquire_link', sequence: 1, status: 0, tlvs: {} });
    expect(bytes.toString('hex')).toBe('00000010' + '00000015' + '00000000' + '00000001');
  });

  it('encodes a submit_sm built by hand from the spec', () => {
    const expected = Buffer.from(
      '00000034' + '00000004' + '00000000' + '0000002a' +
      '00' + // service_type
      '0500' + Buffer.from('Tasman').toString('hex') + '00' +
      '0101' + Buffer.from('61412345678').toString('hex') + '00' +
      '000000' + '00' + '00' + // esm_class, protocol_id, priority, schedule, validity
      '01000000' + // registered_delivery, replace_if_present, data_coding, sm_default_msg_id
      '02' + '4869', 'hex');
    const pdu: Pdu = { command: 'submit_sm', sequence: 42, status: 0, ...sm, sourceAddrTon: 5, sourceAddr: 'Tasman',
      destAddrTon: 1, destAddrNpi: 1, destinationAddr: '61412345678', registeredDelivery: 1,
      shortMessage: Buffer.from('Hi'), tlvs: {} };
    expect(encodePdu(pdu).toString('hex')).toBe(expected.toString('hex'));
    expect(decodePdu(expected)).toEqual(pdu);
  });

  it('decodes a submit_sm_resp and a receipt TLV area from hand-made bytes', () => {
    const resp = Buffer.from('00000014' + '80000004' + '00000000' + '00000007' + '61626300', 'hex');
    expect(decodePdu(resp)).toEqual({ command: 'submit_sm_resp', sequence: 7, status: 0, messageId: 'abc', tlvs: {} });
    const tlvs = '001e0004' + '61626300' + '04270001' + '02';
    const body = '00' + '0000' + '00' + '0000' + '00' + '04' + '00' + '00' + '00' + '00' + '00' + '00' + '00' + '00' + '00';
    const hex = body + tlvs;
    const len = (16 + hex.length / 2).toString(16).padStart(8, '0');
    const pdu = decodePdu(Buffer.from(len + '00000005' + '00000000' + '00000001' + hex, 'hex'));
    expect(pdu).toMatchObject({ command: 'deliver_sm', esmClass: 4, tlvs: { receiptedMessageId: 'abc', messageState: 2 } });
  });

  it('accepts error responses with or without a body', () => {
    const bare = Buffer.from('00000010' + '80000004' + '0000000b' + '00000003', 'hex');
    expect(decodePdu(bare)).toMatchObject({ command: 'submit_sm_resp', status: 0x0b, messageId: '' });
    const withNul = Buffer.from('00000011' + '80000004' + '0000000b' + '00000003' + '00', 'hex');
    expect(decodePdu(withNul)).toMatchObject({ command: 'submit_sm_resp', status: 0x0b, messageId: '' });
    const encoded = encodePdu({ command: 'submit_sm_resp', sequence: 3, status: 0x0b, messageId: 'x', tlvs: {} });
    expect(encoded.length).toBe(16);
  });

  it('keeps unknown commands for a generic_nack and unknown TLVs byte for byte', () => {
    const raw = Buffer.from('00000014' + '00000103' + '00000000' + '00000009' + 'deadbeef', 'hex');
    const pdu = decodePdu(raw);
    expect(pdu).toMatchObject({ command: 'unknown', commandId: 0x103, sequence: 9 });
    expect(encodePdu(pdu)).toEqual(raw);
  });

  it('rejects malformed bodies', () => {
    const noNul = Buffer.from('00000013' + '80000004' + '00000000' + '00000007' + '616263', 'hex');
    expect(() => decodePdu(noNul)).toThrow(MalformedPduError);
    const badTlv = Buffer.from('00000015' + '80000004' + '00000000' + '00000007' + '00' + '0427ff', 'hex');
    expect(() => decodePdu(badTlv)).toThrow(MalformedPduError);
  });

  it('encodes query_sm as the spec lays it out, and reads a refused query_sm_resp without a body', () => {
    const bytes = encodePdu({ command: 'query_sm', sequence: 1, status: 0, messageId: 'A1', sourceAddrTon: 1, sourceAddrNpi: 1, sourceAddr: '614', tlvs: {} });
    expect(bytes.toString('hex')).toBe(`00000019000000030000000000000001${Buffer.from('A1\0', 'latin1').toString('hex')}0101${Buffer.from('614\0', 'latin1').toString('hex')}`);
    const refused = Buffer.from('0000001080000003000000670000000a', 'hex');
    expect(decodePdu(refused)).toMatchObject({ command: 'query_sm_resp', status: Status.ESME_RQUERYFAIL, messageState: 0 });
  });

  it('classifies statuses', () => {
    expect(isTemporaryStatus(Status.ESME_RTHROTTLED)).toBe(true);
    expect(isTemporaryStatus(Status.ESME_RMSGQFUL)).toBe(true);
    expect(isTemporaryStatus(0x400)).toBe(true);
    expect(isPermanentStatus(Status.ESME_RINVDSTADR)).toBe(true);
    expect(isPermanentStatus(Status.ESME_RSUBMITFAIL)).toBe(true);
    expect(isPermanentStatus(Status.ESME_ROK)).toBe(false);
    expect(isTemporaryStatus(Status.ESME_ROK)).toBe(false);
  });
});

describe('frame splitter', () => {
  const stream = Buffer.concat(samples.map(encodePdu));

  it('reassembles PDUs from arbitrary chunking', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 200 }), (cuts) => {
      const splitter = createFrameSplitter();
      const frames: Buffer[] = [];
      let at = 0;
      for (const cut of cuts) {
        if (at >= stream.length) break;
        frames.push(...splitter.push(stream.subarray(at, at + cut)));
        at += cut;
      }
      frames.push(...splitter.push(stream.subarray(at)));
      expect(frames.map(decodePdu)).toEqual(samples);
    }));
  });

  it('handles several PDUs in one chunk and a length split across chunks', () => {
    const splitter = createFrameSplitter();
    expect(splitter.push(stream.subarray(0, 2))).toEqual([]);
    expect(splitter.push(stream.subarray(2)).length).toBe(samples.length);
  });

  it.each([0, 15, 64 * 1024 + 1, 0xffffffff])('rejects command_length %d', (length) => {
    const b = Buffer.alloc(16);
    b.writeUInt32BE(length);
    expect(() => createFrameSplitter().push(b)).toThrow(MalformedPduError);
  });
});
