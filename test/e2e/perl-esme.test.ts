// Tasman's SMPP server against an ESME written with Debian's Net::SMPP (test/carrier/perl/esme.pl), over real TCP:
// a refused and an accepted bind, single, long (UDH and SAR) and UCS-2 submits, and their receipts waiting in the
// queue until the ESME binds a receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { until } from '../carrier/support.ts';

const hasNetSmpp = spawnSync('perl', ['-MNet::SMPP', '-e1']).status === 0;

describe.skipIf(!hasNetSmpp)('the SMPP server with a Net::SMPP ESME', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ SMPP_SERVER_PORT: '0' }, { workers: true }); });
  afterAll(async () => { await t?.close(); });

  it('binds, submits each kind of message and gets every receipt back', async () => {
    const acct = await createAccount(t.app, { credits: 20 });
    const cred = (await call(t.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'perl', tps: 100 })).body as { system_id: string; password: string };
    const lines: string[] = [];
    const perl = spawn('perl', [fileURLToPath(new URL('../carrier/perl/esme.pl', import.meta.url)), String(t.smppServer!.port), cred.system_id, cred.password, mobile().slice(1)], { stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: perl.stdout as NodeJS.ReadableStream }).on('line', (l) => lines.push(l));
    try {
      await until(() => lines.includes('DONE'), 80_000, `the Perl ESME to finish (so far: ${lines.join(' | ')})`);
    } finally {
      perl.kill();
    }
    expect(lines).toContain('BADBIND status=14');
    expect(lines).toContain('BIND mode=transmitter status=0');
    expect(lines).toContain('BIND mode=receiver status=0');
    const submits = new Map(lines.filter((l) => l.startsWith('SUBMIT')).map((l) => {
      const [, name, status, id] = /name=(\w+) status=(\d+) id=(\S*)/.exec(l)!;
      return [name!, { status: Number(status), id: id! }];
    }));
    expect([...submits.keys()]).toEqual(['single', 'udh1', 'udh2', 'sar1', 'sar2', 'ucs2']);
    for (const s of submits.values()) expect(s.status).toBe(0);
    const texts = await Promise.all([...submits.values()].map(async (s) => ((await call(t.app, acct.apiKey, 'GET', `/message/${s.id}`)).body.message as { body: string }).body));
    expect(texts).toEqual(['Hello from Net::SMPP', 'First half, ', 'second half.', 'SAR one, ', 'SAR two.', 'Kia ora – ngā mihi']);
    // One message and one credit per submit, whatever its concatenation fields.
    expect((await call(t.app, acct.apiKey, 'GET', '/balance')).body.credits).toBe(14);
    const delivers = lines.filter((l) => l.startsWith('DELIVER'));
    expect(delivers).toHaveLength(6);
    for (const s of submits.values()) {
      expect(delivers.some((d) => d.startsWith(`DELIVER esm=4 receipted=${s.id} state=2 text=id:${s.id} sub:001 dlvrd:001 `) && d.includes('stat:DELIVRD'))).toBe(true);
    }
  });
});
