// Several carriers in the default cluster (TASMAN_WORKERS=1: an API process and a workers process): the workers
// process holds the carriers, and the API process's /status must be degraded exactly as one process's would be
// when a country's route has no bound carrier (the workers process publishes the unserved countries).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { createSimulator } from '../../src/carrier/index.ts';
import { createScratchDatabase } from '../support/scratch-db.ts';
import { startProcess } from '../support/process.ts';
import { pollUntil } from '../support/poll.ts';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function simulatorOn(port: number) {
  const s = createSimulator({ port, host: '127.0.0.1', dlrDelayMs: 0 });
  await s.start();
  cleanups.push(() => s.stop());
  return s;
}

const until = <T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, timeoutMs?: number) => pollUntil(read, done, what, timeoutMs, 200);

interface Status { status: string; services: Record<string, string> }

describe('several carriers in a cluster', () => {
  it('an API process reports a country whose carriers are all down as degraded, and operational once one binds', { timeout: 240_000 }, async () => {
    const au = await simulatorOn(0);
    // A port nobody listens on yet: the NZ carrier is down from the start.
    const probe = createSimulator({ port: 0, host: '127.0.0.1' });
    await probe.start();
    const nzPort = probe.port;
    await probe.stop();

    const db = await createScratchDatabase('tasman_carriers_cluster');
    cleanups.push(() => db.drop());
    const dir = mkdtempSync(path.join(tmpdir(), 'tasman-carriers-cluster-'));
    const file = path.join(dir, 'carriers.json');
    const carrier = (id: string, port: number) => ({ id, host: '127.0.0.1', port, system_id: 'tasman', password_env: 'CARRIER_PW' });
    writeFileSync(file, JSON.stringify({
      carriers: [carrier('au', au.port), carrier('nz', nzPort)],
      routes: [{ country: 'NZ', carriers: ['nz'] }, { carriers: ['au'] }],
    }));
    const proc = await startProcess({
      DATABASE_URL: db.url, DATA_DIR: dir, TASMAN_CARRIERS: file, CARRIER_PW: 'pw', TASMAN_WORKERS: '1', TASMAN_ADMIN_TOKEN: 'cluster-admin',
    }, { startTimeoutMs: 180_000 });
    cleanups.push(() => proc.stop());
    const status = async (): Promise<Status> => (await (await request(`${proc.url}/status`, { reset: true })).body.json()) as Status;

    // Served by the API process: the only process with the API role in this cluster.
    const degraded = await until(status, (s) => s.services.outbound === 'degraded', 'outbound degraded');
    // au is bound, so this is the country check alone (the link check would make inbound degraded too).
    expect(degraded).toMatchObject({ status: 'degraded', services: { outbound: 'degraded', inbound: 'operational' } });
    const view = await request(`${proc.url}/admin/carriers`, { headers: { authorization: 'Bearer cluster-admin' } });
    expect(((await view.body.json()) as { unserved_countries: string[] }).unserved_countries).toEqual(['NZ']);

    // The NZ SMSC comes up: the workers process binds, publishes, and the API process is operational again.
    await simulatorOn(nzPort);
    const back = await until(status, (s) => s.status === 'operational', 'operational', 120_000);
    expect(back.services).toEqual({ outbound: 'operational', inbound: 'operational', delivery_receipts: 'operational' });
  });
});
