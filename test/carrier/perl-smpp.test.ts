// Our carrier against an SMSC on Debian's libnet-smpp-perl (test/carrier/perl/smsc.pl), over real TCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createSmppCarrier } from '../../src/carrier/smpp/smpp-carrier.ts';
import { normaliseMessageId } from '../../src/carrier/smpp/receipt.ts';
import type { Carrier } from '../../src/carrier/carrier.ts';
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

  it('unbinds on stop', async () => {
    await carrier.stop();
    await line('UNBIND');
    expect(carrier.health().bound).toBe(false);
  });
});
