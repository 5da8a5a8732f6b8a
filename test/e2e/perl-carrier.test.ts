// The whole pipeline against the Net::SMPP (Perl) SMSC (test/carrier/perl/smsc.pl), over real TCP: an SMSC that
// restarts its id counter (destinations ending 550) must not leave a message `sent` forever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount } from '../support/factories.ts';
import { until } from '../carrier/support.ts';
import { pollUntil } from '../support/poll.ts';

const hasNetSmpp = spawnSync('perl', ['-MNet::SMPP', '-e1']).status === 0;

describe.skipIf(!hasNetSmpp)('the pipeline against the Net::SMPP SMSC', () => {
  let perl: ChildProcess;
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    perl = spawn('perl', [fileURLToPath(new URL('../carrier/perl/smsc.pl', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: perl.stdout as NodeJS.ReadableStream }).on('line', (l) => lines.push(l));
    await until(() => lines.some((l) => l.startsWith('LISTENING')), 20_000, 'the Perl SMSC');
    const port = lines.find((l) => l.startsWith('LISTENING'))!.split(' ')[1]!;
    t = await createTestApp({ SMPP_HOST: '127.0.0.1', SMPP_PORT: port }, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
    perl?.kill();
  });


  async function finalStatus(key: string, id: string): Promise<string> {
    const status = async () => ((await call(t.app, key, 'GET', `/message/${id}`)).body.message as { status: string }).status;
    return pollUntil(status, (s) => s === 'delivered' || s === 'failed', `message ${id} final (the SMSC saw: ${lines.join(' | ')})`, 30_000, 25)
      .catch(async (err: Error) => { throw new Error(`${err.message}; the SMSC saw: ${lines.join(' | ')}`); });
  }

  it('a receipt for a reused id reaches the new single-part message, not the old segment', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    // Ids 2F01 and 2F02 go to the two segments of an old message, which is delivered.
    const old = await call(t.app, a.apiKey, 'POST', '/send', { to: '+61412345678', message: 'o'.repeat(200) });
    expect(await finalStatus(a.apiKey, old.body.message_id as string)).toBe('delivered');
    // The SMSC restarts its counter: 2F01 again, for a single-part message.
    const fresh = await call(t.app, a.apiKey, 'POST', '/send', { to: '+61412345550', message: 'after the restart' });
    expect(await finalStatus(a.apiKey, fresh.body.message_id as string)).toBe('delivered');
    expect(lines.filter((l) => l.startsWith('SUBMIT'))).toHaveLength(3);
  });
});
