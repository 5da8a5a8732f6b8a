// Our carrier against an SMSC on Debian's libnet-smpp-perl (test/carrier/perl/smsc.pl), over real TCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createSmppCarrier } from '../../src/carrier/smpp/smpp-carrier.ts';
import { normaliseMessageId } from '../../src/carrier/smpp/receipt.ts';
import type { Carrier } from '../../src/carrier/carrier.ts';
import { joinInboundParts } from '../../src/carrier/text.ts';
import { createRecorder, until } from './support.ts';

const hasNetSmpp = spawnSync('perl', ['-MNet::SMPP', '-e1']).status === 0;
if (!hasNetSmpp) {
  console.warn('Skipping Perl SMSC interop tests: `perl -MNet::SMPP -e1` failed (apt-get install libnet-smpp-perl)');
}

describe.skipIf(!hasNetSmpp)('carrier against the Net::SMPP (Perl) SMSC', () => {
  let perl: ChildProcess;
  let carrier: Carrier;
  const lines: string[] = [];
  const rec = createRecorder();
  const script = fileURLToPath(new URL('./perl/smsc.pl', import.meta.url));

  const line = (prefix: string, n = 1): Promise<string[]> =>
    until(() => lines.filter((l) => l.startsWith(prefix)).length >= n, 20_000, `${n} ${prefix} lines`)
      .then(() => lines.filter((l) => l.startsWith(prefix)));

  const field = (l: string, name: string): string => new RegExp(`\\b${name}=(\\S*)`).exec(l)?.[1] ?? '';

  beforeAll(async () => {
    perl = spawn('perl', [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: perl.stdout as NodeJS.ReadableStream }).on('line', (l) => lines.push(l));
    const [listening] = await line('LISTENING');
    const port = Number(listening?.split(' ')[1]);
    carrier = createSmppCarrier({
      host: '127.0.0.1', port, systemId: 'tasman', password: 'pw', window: 5, tps: 50,
      messageIds: { submit: 'hex', receipt: 'decimal' },
    });
    await carrier.start(rec);
  });

  afterAll(async () => {
    await carrier?.stop();
    perl?.kill();
  });

  it('binds', async () => {
    expect((await line('BIND'))[0]).toBe('BIND system_id=tasman password=pw');
    expect(carrier.health().bound).toBe(true);
  });

  it('submits GSM-7 and matches the decimal receipt id to the hex submit id', async () => {
    const result = await carrier.submit({ id: 'p1', from: 'Tasman', to: '+61412345678', text: '@Hi {x}', receipt: true });
    if (!result.ok) throw new Error(result.message);
    const [submit] = await line('SUBMIT');
    expect(field(submit ?? '', 'dc')).toBe('0');
    expect(field(submit ?? '', 'src_ton')).toBe('5');
    expect(field(submit ?? '', 'dst')).toBe('61412345678');
    expect(field(submit ?? '', 'sm')).toBe('004869201b28781b29');
    const receipt = await rec.receipt((r) => r.smscMessageId === result.smscMessageId);
    expect(receipt).toMatchObject({ state: 'delivered', final: true });
    expect(result.smscMessageId).toBe(normaliseMessageId('2F01', 'hex'));
    await until(() => lines.some((l) => l.startsWith('RESP cmd=80000005 status=0')), 20_000, 'deliver_sm_resp');
  });

  it('submits UCS-2 and a 3-part message', async () => {
    const before = lines.filter((l) => l.startsWith('SUBMIT')).length;
    const ucs2 = await carrier.submit({ id: 'p2', from: '+61400000001', to: '+61412345678', text: 'Ωμέγα', receipt: false });
    expect(ucs2.ok).toBe(true);
    const long = await carrier.submit({ id: 'p3', from: 'Tasman', to: '+61412345678', text: 'z'.repeat(320), receipt: false });
    if (!long.ok) throw new Error(long.message);
    expect(long.segmentIds).toHaveLength(3);
    const submits = (await line('SUBMIT', before + 4)).slice(before);
    expect(submits[0]).toContain(`dc=8 esm=0 src_ton=1 src_npi=1 src=61400000001`);
    expect(field(submits[0] ?? '', 'sm')).toBe(Buffer.from('Ωμέγα', 'utf16le').swap16().toString('hex'));
    const parts = submits.slice(1).map((l) => field(l, 'sm'));
    const ref = parts[0]?.slice(6, 8);
    parts.forEach((sm, i) => expect(sm.slice(0, 12)).toBe(`050003${ref}030${i + 1}`));
    expect(parts.map((sm) => sm.length / 2 - 6)).toEqual([153, 153, 14]);
    for (const l of submits.slice(1)) expect(field(l, 'esm')).toBe('64');
  });

  it('receives a two-part MO message', async () => {
    const result = await carrier.submit({ id: 'p4', from: '+61400000001', to: '+61412345555', text: 'ping', receipt: false });
    expect(result.ok).toBe(true);
    const second = await rec.inboundWhere((m) => m.part?.seq === 2);
    const first = await rec.inboundWhere((m) => m.part?.seq === 1);
    expect([first.text, second.text]).toEqual(['Perl says hello ', 'in two parts']);
    expect(first).toMatchObject({ from: '+61412345555', to: '+61400000001', part: { ref: 0x42, total: 2 } });
  });

  it('reports ACCEPTD as a final receipt', async () => {
    const result = await carrier.submit({ id: 'p5', from: 'Tasman', to: '+61412345554', text: 'read by customer care', receipt: true });
    if (!result.ok) throw new Error(result.message);
    expect(await rec.receipt((r) => r.smscMessageId === result.smscMessageId)).toMatchObject({ state: 'accepted', final: true });
  });

  it('hands over split UCS-2 and GSM-escape MO parts as octets that join whole', async () => {
    for (const to of ['+61412345553', '+61412345552']) {
      expect((await carrier.submit({ id: `p-${to}`, from: '+61400000001', to, text: 'ping', receipt: false })).ok).toBe(true);
    }
    const whole = async (ref: number) => {
      const parts = await Promise.all([1, 2].map((seq) => rec.inboundWhere((m) => m.part?.ref === ref && m.part.seq === seq)));
      return joinInboundParts(parts.map((m) => ({ text: m.text, octets: m.part!.octets, coding: m.part!.coding })));
    };
    expect(await whole(0x43)).toBe('Hi 👋!');
    expect(await whole(0x44)).toBe('5€!');
  });

  it('answers an undecodable deliver_sm with deliver_sm_resp ESME_RX_P_APPN and keeps the session', async () => {
    const connectedBefore = lines.filter((l) => l === 'CONNECTED').length;
    expect((await carrier.submit({ id: 'p6', from: '+61400000001', to: '+61412345551', text: 'ping', receipt: false })).ok).toBe(true);
    const [resp] = await line('RESP cmd=80000005 status=101 seq=28672');
    expect(resp).toBeDefined();
    expect((await rec.inboundWhere((m) => m.text === 'after the bad one')).from).toBe('+61412345551');
    expect(lines.filter((l) => l === 'CONNECTED').length).toBe(connectedBefore);
    expect(lines).not.toContain('DISCONNECTED');
    expect((await carrier.submit({ id: 'p7', from: 'Tasman', to: '+61412345678', text: 'still bound', receipt: false })).ok).toBe(true);
  });

  it('sees reused message ids after the SMSC restarts its counter', async () => {
    const first = await carrier.submit({ id: 'p8', from: 'Tasman', to: '+61412345550', text: 'one', receipt: false });
    const second = await carrier.submit({ id: 'p9', from: 'Tasman', to: '+61412345550', text: 'two', receipt: false });
    if (!first.ok || !second.ok) throw new Error('submit failed');
    expect(second.smscMessageId).toBe(first.smscMessageId);
  });

  it('unbinds on stop', async () => {
    await carrier.stop();
    await line('UNBIND');
    expect(carrier.health().bound).toBe(false);
  });
});
