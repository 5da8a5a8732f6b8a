// The built-in SMSC's promised receipts survive kill -9 of its process: `tasman simulator` in a child process,
// our carrier submitting to it, the child killed while every receipt is still pending, a new one started on the
// same port and DATA_DIR, and every receipt arrives.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSmppCarrier } from '../../src/carrier/smpp/smpp-carrier.ts';
import { simulatorProcess } from '../support/smsc-process.ts';
import { createRecorder } from './support.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c(); });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe('the simulator receipts survive a crash', () => {
  it('sends every receipt it promised before kill -9, after the restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-sim-journal-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    // Receipts 10 s after their submits: the 20 submits and the kill take far less.
    const env = { DATA_DIR: dataDir, SIM_PORT: String(port), SIM_DLR_DELAY_MS: '10000' };
    const first = await simulatorProcess((c) => { cleanups.push(c); }, env);
    const rec = createRecorder();
    const carrier = createSmppCarrier({
      host: '127.0.0.1', port, systemId: 'tasman', password: 'x', window: 10, tps: 0, reconnect: { initialMs: 50, maxMs: 200 },
    });
    cleanups.push(() => carrier.stop());
    await carrier.start(rec);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await carrier.submit({ id: `m${i}`, from: 'Tasman', to: `+614000010${String(i).padStart(2, '0')}`, text: `promised ${i}`, receipt: true });
      if (!r.ok) throw new Error(`submit failed: ${r.errorCode}`);
      ids.push(r.smscMessageId);
    }
    await first.kill('SIGKILL');
    const beforeKill = rec.receipts.length;
    expect(beforeKill).toBe(0);

    // The new process reads the 20 promised receipts back and sends each when due (at once if overdue).
    await simulatorProcess((c) => { cleanups.push(c); }, env);
    for (const id of ids) expect(await rec.receipt((r) => r.smscMessageId === id, 120_000)).toMatchObject({ final: true });
  }, 180_000);
});
