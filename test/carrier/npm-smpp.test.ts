// Our carrier against an SMSC written with the npm `smpp` package, over real TCP.
import { afterEach, describe, expect, it } from 'vitest';
import { createSmppCarrier, type SmppCarrierOptions } from '../../src/carrier/smpp/smpp-carrier.ts';
import { normaliseMessageId } from '../../src/carrier/smpp/receipt.ts';
import type { Carrier, SubmitResult } from '../../src/carrier/carrier.ts';
import { answerTo, deliver, startNpmSmsc, undecodableDeliverSm, type NpmSmsc, type Received } from './npm-smsc.ts';
import { UnstorableDeliveryError } from '../../src/carrier/carrier.ts';
import { joinInboundParts } from '../../src/carrier/text.ts';
import { createRecorder, until, type Recorder } from './support.ts';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function setup(extra: Partial<SmppCarrierOptions> = {}): Promise<{ smsc: NpmSmsc; carrier: Carrier; rec: Recorder }> {
  const smsc = await startNpmSmsc();
  cleanup.push(() => smsc.stop());
  const rec = createRecorder();
  const carrier = createSmppCarrier({
    host: '127.0.0.1', port: smsc.port, systemId: 'tasman', password: 'secret', systemType: 'SMS', window: 10,
    tps: 0, reconnect: { initialMs: 20, maxMs: 200 }, ...extra,
  });
  cleanup.push(() => carrier.stop());
  await carrier.start(rec);
  return { smsc, carrier, rec };
}

const request = (text: string, to = '+61412345678', from = 'Tasman') => ({ id: `id-${text.length}`, from, to, text, receipt: true });

function expectOk(r: SubmitResult): asserts r is Extract<SubmitResult, { ok: true }> {
  if (!r.ok) throw new Error(`submit failed: ${r.errorCode} ${r.message}`);
}

const udhOf = (s: Received): Buffer[] => ((s.pdu.short_message as { udh?: Buffer[] }).udh ?? []);
const messageOf = (s: Received): string => (s.pdu.short_message as { message: string }).message;

describe('carrier against the npm smpp SMSC', () => {
  it('binds as a transceiver with our credentials', async () => {
    const { smsc, carrier } = await setup();
    expect(smsc.binds).toHaveLength(1);
    expect(smsc.binds[0]).toMatchObject({ command: 'bind_transceiver', system_id: 'tasman', password: 'secret',
      system_type: 'SMS', interface_version: 0x34 });
    expect(carrier.health()).toMatchObject({ connected: true, bound: true });
  });

  it('submits GSM-7 unpacked with data_coding 0, alphanumeric source and international destination', async () => {
    const { smsc, carrier } = await setup();
    const result = await carrier.submit(request('Hi € [ok]'));
    expectOk(result);
    expect(result.smscMessageId).toBe(normaliseMessageId('ID1'));
    const s = smsc.submits[0] as Received;
    expect(s.pdu).toMatchObject({ data_coding: 0, esm_class: 0, registered_delivery: 1, source_addr_ton: 5,
      source_addr_npi: 0, source_addr: 'Tasman', dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: '61412345678' });
    expect(messageOf(s)).toBe('Hi € [ok]');
    // short_message is the last field before any TLVs: sm_length then the septets, one per octet.
    expect(s.raw.subarray(-13).toString('hex')).toBe('0c' + '486920' + '1b65' + '20' + '1b3c' + '6f6b' + '1b3e');
  });

  it('submits UCS-2 big-endian with data_coding 8 and an international source', async () => {
    const { smsc, carrier } = await setup();
    expectOk(await carrier.submit(request('Kia ora 👋 café', '+64211234567', '+61400000001')));
    const s = smsc.submits[0] as Received;
    expect(s.pdu).toMatchObject({ data_coding: 8, source_addr_ton: 1, source_addr_npi: 1, source_addr: '61400000001',
      destination_addr: '64211234567' });
    expect(messageOf(s)).toBe('Kia ora 👋 café');
    const expected = Buffer.from('Kia ora 👋 café', 'utf16le').swap16();
    expect(s.raw.subarray(-expected.length).equals(expected)).toBe(true);
  });

  it('submits a 3-part message with UDH and returns every segment id', async () => {
    const { smsc, carrier } = await setup();
    const text = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ') + ' '.repeat(100) + 'end';
    const result = await carrier.submit(request(text));
    expectOk(result);
    expect(smsc.submits).toHaveLength(3);
    expect(result.segmentIds).toEqual(['id1', 'id2', 'id3'].map((id) => normaliseMessageId(id)));
    const parts = [...smsc.submits].sort((a, b) => (udhOf(a)[0]?.[4] ?? 0) - (udhOf(b)[0]?.[4] ?? 0));
    const ref = udhOf(parts[0] as Received)[0]?.[2];
    parts.forEach((p, i) => {
      expect(p.pdu.esm_class).toBe(0x40);
      expect(p.pdu.data_coding).toBe(0);
      expect(udhOf(p)[0]?.toString('hex')).toBe(`0003${ref?.toString(16).padStart(2, '0')}03${(i + 1).toString(16).padStart(2, '0')}`);
    });
    expect(parts.map(messageOf).join('')).toBe(text);
    expect(messageOf(parts[0] as Received)).toHaveLength(153);
  });

  it('delivers receipts, including one sent before the submit_sm_resp', async () => {
    const { smsc, carrier, rec } = await setup();
    const order: string[] = [];
    smsc.onSubmit = (s, respond) => {
      // Receipt first, and only once it is acknowledged the submit_sm_resp: the race real SMSCs produce.
      void deliver(s.session, {
        source_addr: '61412345678', destination_addr: 'Tasman', esm_class: 4,
        short_message: 'id:00A1B2 sub:001 dlvrd:001 submit date:2401021304 done date:2401021305 stat:DELIVRD err:000 text:',
      }).then((status) => { order.push(`deliver_sm_resp ${status}`); respond(0, 'a1b2'); });
    };
    const result = await carrier.submit(request('early receipt'));
    order.push('submit resolved');
    expectOk(result);
    const receipt = await rec.receipt((r) => r.smscMessageId === result.smscMessageId);
    expect(receipt).toMatchObject({ state: 'delivered', final: true, errorCode: '000' });
    expect(order).toEqual(['deliver_sm_resp 0', 'submit resolved']);

    // TLVs win over text, and the session survives to take more.
    smsc.onSubmit = (_s, respond) => respond(0, 'FF01');
    const second = await carrier.submit(request('second'));
    expectOk(second);
    const status = await deliver(smsc.submits[1]?.session as Received['session'], {
      source_addr: '61412345678', destination_addr: 'Tasman', esm_class: 4,
      receipted_message_id: 'FF01', message_state: 5, short_message: 'id:999 stat:DELIVRD',
    });
    expect(status).toBe(0);
    expect(await rec.receipt((r) => r.smscMessageId === second.smscMessageId)).toMatchObject({ state: 'undelivered' });
  });

  it('reads the message type from bits 2-5 of esm_class: acknowledgements are never inbound, an intermediate notification never final', async () => {
    const { smsc, rec } = await setup();
    const session = smsc.sessions[0] as Received['session'];
    const base = { source_addr_ton: 1, source_addr: '61499000002', dest_addr_ton: 1, destination_addr: '61400000002' };
    const receiptText = (stat: string) => `id:7E57 sub:001 dlvrd:000 submit date:2401021304 done date:2401021305 stat:${stat} err:000 text:`;
    // SME delivery acknowledgement, user acknowledgement, conversation abort: the UDHI (0x40) and reply-path (0x80)
    // bits set on some of them change nothing.
    for (const esm of [0x08, 0x48, 0x10, 0x90, 0x18]) expect(await deliver(session, { ...base, esm_class: esm, short_message: receiptText('DELIVRD') })).toBe(0);
    // An intermediate notification, whatever state it names, and a receipt with the reply-path bit.
    expect(await deliver(session, { ...base, esm_class: 0x20, short_message: receiptText('ENROUTE') })).toBe(0);
    expect(await deliver(session, { ...base, esm_class: 0x20, short_message: receiptText('DELIVRD') })).toBe(0);
    expect(await deliver(session, { ...base, esm_class: 0x84, short_message: receiptText('DELIVRD') })).toBe(0);
    // A person's message with the reply-path bit is still a message.
    expect(await deliver(session, { ...base, esm_class: 0x80, short_message: 'a reply' })).toBe(0);
    expect(rec.inbound.map((m) => m.text)).toEqual(['a reply']);
    expect(rec.receipts.map((r) => [r.state, r.final])).toEqual([['enroute', false], ['enroute', false], ['delivered', true]]);
  });

  it('answers deliver_sm with a temporary error while the handler fails, so the SMSC can resend', async () => {
    const { smsc, rec } = await setup();
    const session = smsc.sessions[0] as Received['session'];
    rec.failNext(1);
    const mo = { source_addr_ton: 1, source_addr: '61499000001', dest_addr_ton: 1, destination_addr: '61400000001', short_message: 'hello' };
    expect(await deliver(session, mo)).toBe(0x64);
    expect(rec.inbound).toHaveLength(0);
    expect(await deliver(session, mo)).toBe(0);
    expect(rec.inbound).toMatchObject([{ from: '+61499000001', to: '+61400000001', text: 'hello' }]);
  });

  it('reports both parts of a 2-part MO, by UDH and by sar_* TLVs', async () => {
    const { smsc, rec } = await setup();
    const session = smsc.sessions[0] as Received['session'];
    const base = { source_addr_ton: 1, source_addr_npi: 1, source_addr: '61499000002', dest_addr_ton: 1, destination_addr: '61400000001' };
    await deliver(session, { ...base, esm_class: 0x40, short_message: { udh: Buffer.from([5, 0, 3, 77, 2, 1]), message: 'first half ' } });
    await deliver(session, { ...base, esm_class: 0x40, short_message: { udh: Buffer.from([5, 0, 3, 77, 2, 2]), message: 'second half' } });
    await deliver(session, { ...base, data_coding: 8, short_message: 'ж one', sar_msg_ref_num: 500, sar_total_segments: 2, sar_segment_seqnum: 1 });
    await deliver(session, { ...base, data_coding: 8, short_message: 'ж two', sar_msg_ref_num: 500, sar_total_segments: 2, sar_segment_seqnum: 2 });
    // `smpp` sends plain strings as IA5 (data_coding 1), which reads as Latin-1.
    const ucs2 = (s: string) => Buffer.from(s, 'utf16le').swap16();
    expect(rec.inbound.map(({ from, text, part }) => ({ from, text, part }))).toEqual([
      { from: '+61499000002', text: 'first half ', part: { ref: 77, total: 2, seq: 1, coding: 'latin1', octets: Buffer.from('first half ') } },
      { from: '+61499000002', text: 'second half', part: { ref: 77, total: 2, seq: 2, coding: 'latin1', octets: Buffer.from('second half') } },
      { from: '+61499000002', text: 'ж one', part: { ref: 500, total: 2, seq: 1, coding: 'ucs2', octets: ucs2('ж one') } },
      { from: '+61499000002', text: 'ж two', part: { ref: 500, total: 2, seq: 2, coding: 'ucs2', octets: ucs2('ж two') } },
    ]);
  });

  it('matches responses that come out of order, and keeps to the window', async () => {
    const { smsc, carrier } = await setup({ window: 2 });
    const held: Array<() => void> = [];
    smsc.onSubmit = (s, respond) => held.push(() => respond(0, `re${messageOf(s)}`));
    const results = ['a', 'b', 'c'].map((t) => carrier.submit(request(t)));
    await until(() => held.length === 2, 20_000, 'two submits');
    expect(carrier.health().inFlight).toBe(2);
    held[1]?.(); // answer b before a
    await until(() => held.length === 3, 20_000, 'the third submit, once a slot freed');
    held[2]?.();
    held[0]?.();
    const ids = (await Promise.all(results)).map((r) => (r.ok ? r.smscMessageId : r.errorCode));
    expect(ids).toEqual(['rea', 'reb', 'rec']);
  });

  it('reports permanent and temporary refusals', async () => {
    const { smsc, carrier } = await setup();
    smsc.onSubmit = (_s, respond) => respond(0x0b);
    expect(await carrier.submit(request('x'))).toMatchObject({ ok: false, permanent: true, errorCode: 'ESME_RINVDSTADR' });
    smsc.onSubmit = (_s, respond) => respond(0x08);
    expect(await carrier.submit(request('x'))).toMatchObject({ ok: false, permanent: false, errorCode: 'ESME_RSYSERR' });
  });

  it('settles at the pace of an SMSC that throttles above 10 per second: every message accepted once, none failed', async () => {
    // The SMSC takes 10 submit_sm per calendar second and throttles the rest, alternately with ESME_RTHROTTLED and
    // ESME_RMSGQFUL (both mean "slow down"). SMPP_TPS is 100: far above it.
    const { smsc, carrier } = await setup({ tps: 100, window: 10 });
    const perSecond = new Map<number, number>();
    let throttles = 0;
    let accepted = 0;
    smsc.onSubmit = (s, respond) => {
      const second = Math.floor(Date.now() / 1000);
      const taken = perSecond.get(second) ?? 0;
      if (taken >= 10) { throttles++; respond(throttles % 2 === 0 ? 0x58 : 0x14); return; }
      perSecond.set(second, taken + 1);
      respond(0, `T-${messageOf(s)}-${++accepted}`);
    };
    const texts = Array.from({ length: 40 }, (_, i) => `paced ${i}`);
    const results = await Promise.all(texts.map((t) => carrier.submit(request(t))));
    // Nothing failed for being throttled, and each message was accepted exactly once.
    for (const r of results) expectOk(r);
    expect(accepted).toBe(40);
    const acceptedTexts = results.map((r) => (r.ok ? r.smscMessageId : '')).map((id) => id.split('-')[1]);
    expect(new Set(acceptedTexts).size).toBe(40);
    // It learnt the pace: far fewer throttled answers than sending at 100/s for the 4 s this takes (~360), and the
    // bind's rate settled near the SMSC's, which the carrier's status shows.
    expect(throttles).toBeGreaterThan(0);
    expect(throttles).toBeLessThan(120);
    const bind = (carrier as ReturnType<typeof createSmppCarrier>).status().binds[0]!;
    expect(bind.throttled).toBe(throttles);
    expect(bind.tps).toBeGreaterThanOrEqual(1);
    expect(bind.tps).toBeLessThan(30);
    // Held below its TPS of 100 by the SMSC: throttled now, as the operator sees it.
    expect(bind.throttledNow).toBe(true);
  });

  it('survives a dropped connection mid-window: in-flight submits fail as temporary, then it resubmits after reconnecting', async () => {
    const { smsc, carrier } = await setup();
    smsc.onSubmit = () => {}; // hold everything
    const inFlight = ['one', 'two', 'three'].map((t) => carrier.submit(request(t)));
    await until(() => smsc.submits.length === 3, 20_000, 'three submits');
    smsc.sessions[0]?.destroy();
    const failed = await Promise.all(inFlight);
    for (const r of failed) expect(r).toMatchObject({ ok: false, permanent: false, errorCode: 'connection_lost' });

    await until(() => smsc.binds.length === 2 && carrier.health().bound, 20_000, 'the rebind');
    smsc.onSubmit = (s, respond) => respond(0, `new-${messageOf(s)}`);
    const again = await Promise.all(['one', 'two', 'three'].map((t) => carrier.submit(request(t))));
    expect(again.map((r) => r.ok && r.smscMessageId)).toEqual(['new-one', 'new-two', 'new-three']);
    // Each text reached the SMSC once per submit() call: the carrier neither lost nor repeated one on its own.
    const counts = new Map<string, number>();
    for (const s of smsc.submits) counts.set(messageOf(s), (counts.get(messageOf(s)) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ one: 2, two: 2, three: 2 });
  });

  it('closes on a malformed PDU and reconnects', async () => {
    const { smsc, carrier } = await setup();
    smsc.sessions[0]?.socket.write(Buffer.from('0000000500000004', 'hex'));
    await until(() => smsc.binds.length === 2 && carrier.health().bound, 20_000, 'the rebind');
    expect(await carrier.submit(request('after'))).toMatchObject({ ok: true });
  });

  it('reconnects when enquire_link goes unanswered', async () => {
    const { smsc, carrier } = await setup({ enquireLinkIntervalMs: 100, responseTimeoutMs: 300 });
    smsc.answerEnquireLink = false;
    await until(() => smsc.binds.length >= 2, 20_000, 'a rebind');
    smsc.answerEnquireLink = true;
    await until(() => carrier.health().bound, 20_000, 'bound');
    expect(await carrier.submit(request('still works'))).toMatchObject({ ok: true });
  });

  it('fails submits as temporary when the SMSC is unreachable', async () => {
    const { smsc, carrier } = await setup({ submitWaitMs: 100 });
    await smsc.stop();
    await until(() => !carrier.health().bound, 20_000, 'unbound');
    expect(await carrier.submit(request('x'))).toMatchObject({ ok: false, permanent: false, errorCode: 'not_bound' });
  });

  it('gives two long messages to one number different concatenation references', async () => {
    const { smsc, carrier } = await setup();
    const long = (id: string) => ({ ...request('x'.repeat(200)), id });
    expectOk(await carrier.submit(long('first')));
    expectOk(await carrier.submit(long('second')));
    const refs = smsc.submits.map((s) => udhOf(s)[0]?.[2]);
    expect(refs).toHaveLength(4);
    expect(refs[0]).toBe(refs[1]);
    expect(refs[2]).toBe(refs[3]);
    expect(refs[2]).toBe(((refs[0] as number) + 1) % 256);
  });

  it('uses the 16-bit reference element (IEI 0x08) when configured', async () => {
    const { smsc, carrier } = await setup({ concatRefBits: 16 });
    const result = await carrier.submit(request('y'.repeat(305)));
    expectOk(result);
    expect(smsc.submits).toHaveLength(3);
    const parts = [...smsc.submits].sort((a, b) => (udhOf(a)[0]?.[5] ?? 0) - (udhOf(b)[0]?.[5] ?? 0));
    const ref = udhOf(parts[0] as Received)[0]?.subarray(2, 4).toString('hex');
    parts.forEach((p, i) => expect(udhOf(p)[0]?.toString('hex')).toBe(`0804${ref}030${i + 1}`));
    expect(parts.map((p) => messageOf(p).length)).toEqual([152, 152, 1]);
  });

  it('reports ACCEPTD as a final receipt', async () => {
    const { smsc, carrier, rec } = await setup();
    const result = await carrier.submit(request('accepted'));
    expectOk(result);
    const status = await deliver(smsc.sessions[0] as Received['session'], {
      source_addr: '61412345678', destination_addr: 'Tasman', esm_class: 4,
      short_message: `id:${result.smscMessageId} sub:001 dlvrd:000 submit date:2401021304 done date:2401021305 stat:ACCEPTD err:000 text:`,
    });
    expect(status).toBe(0);
    expect(await rec.receipt((r) => r.smscMessageId === result.smscMessageId)).toMatchObject({ state: 'accepted', final: true });
  });

  it('hands over MO parts as octets, so a split UCS-2 surrogate pair and a split GSM escape join whole', async () => {
    const { smsc, rec } = await setup();
    const session = smsc.sessions[0] as Received['session'];
    const base = { source_addr_ton: 1, source_addr_npi: 1, source_addr: '61499000003', dest_addr_ton: 1, destination_addr: '61400000001', esm_class: 0x40 };
    const ucs2 = Buffer.from('Hi 👋!', 'utf16le').swap16();
    // Part 1 ends after the high surrogate's first octet: neither the surrogate pair nor one code unit is whole.
    const cut = 7;
    await deliver(session, { ...base, data_coding: 8, short_message: Buffer.concat([Buffer.from([5, 0, 3, 9, 2, 1]), ucs2.subarray(0, cut)]) });
    await deliver(session, { ...base, data_coding: 8, short_message: Buffer.concat([Buffer.from([5, 0, 3, 9, 2, 2]), ucs2.subarray(cut)]) });
    // GSM: part 1 ends with the escape 0x1B, part 2 starts with 0x65 (together: €).
    await deliver(session, { ...base, data_coding: 0, short_message: Buffer.from([5, 0, 3, 10, 2, 1, 0x35, 0x1b]) });
    await deliver(session, { ...base, data_coding: 0, short_message: Buffer.from([5, 0, 3, 10, 2, 2, 0x65, 0x21]) });
    await until(() => rec.inbound.length === 4, 20_000, 'four parts');
    const whole = (ref: number) => joinInboundParts(rec.inbound.filter((m) => m.part?.ref === ref)
      .sort((a, b) => (a.part?.seq ?? 0) - (b.part?.seq ?? 0)).map((m) => ({ text: m.text, octets: m.part!.octets, coding: m.part!.coding })));
    expect(whole(9)).toBe('Hi 👋!');
    expect(whole(10)).toBe('5€!');
    expect(rec.inbound.find((m) => m.part?.ref === 10)?.part?.coding).toBe('gsm');
  });

  it('answers an undecodable deliver_sm with an error and keeps the session', async () => {
    const { smsc, rec } = await setup();
    const session = smsc.sessions[0] as Received['session'];
    session.socket.write(undecodableDeliverSm(0x7000));
    await until(() => answerTo(smsc, 0x7000) !== undefined, 20_000, 'the answer to the bad PDU');
    expect(answerTo(smsc, 0x7000)).toEqual({ commandId: 0x80000005, status: 0x65 });
    const mo = { source_addr_ton: 1, source_addr: '61499000004', dest_addr_ton: 1, destination_addr: '61400000001', short_message: 'still here' };
    expect(await deliver(session, mo)).toBe(0);
    expect(rec.inbound.map((m) => m.text)).toEqual(['still here']);
    expect(smsc.binds).toHaveLength(1);
  });

  it('refuses a delivery the handler can never store with a permanent error (not ESME_RX_T_APPN)', async () => {
    const { smsc } = await setup();
    const rec2 = createRecorder();
    const carrier = createSmppCarrier({ host: '127.0.0.1', port: smsc.port, systemId: 't2', password: 'p', window: 5, tps: 0 });
    cleanup.push(() => carrier.stop());
    await carrier.start({ ...rec2, onInbound: async () => { throw new UnstorableDeliveryError('text with a NUL'); } });
    const session = smsc.sessions[1] as Received['session'];
    expect(await deliver(session, { source_addr_ton: 1, source_addr: '61499000005', destination_addr: '61400000001', short_message: 'a\u0000b' })).toBe(0x65);
  });
});
