// `tasman start` with TASMAN_ROLES=api (a cluster of API processes and no workers process) against a database whose
// carrier link another service runs (TASMAN_ROLES=workers): the API process is ready once it can serve, and its
// /status reads the service's state from the database instead of a carrier link it does not hold.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createScratchDatabase } from '../support/scratch-db.ts';
import { httpJson as http, startProcess } from '../support/process.ts';
import { pollUntil } from '../support/poll.ts';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});


describe('an API-only service', () => {
  it('is ready and operational without a carrier link of its own, and a workers service on the database delivers its messages', { timeout: 240_000 }, async () => {
    const db = await createScratchDatabase('tasman_api_role');
    cleanups.push(() => db.drop());
    const dir = mkdtempSync(path.join(tmpdir(), 'tasman-api-role-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = { DATABASE_URL: db.url, TASMAN_ADMIN_TOKEN: 'api-role-admin', TASMAN_SECRET_KEY: 'ab'.repeat(32) };

    // One API process forked by a primary (TASMAN_WORKERS=1), which runs no workers process for TASMAN_ROLES=api.
    const api = await startProcess({ ...env, DATA_DIR: path.join(dir, 'api'), TASMAN_ROLES: 'api', TASMAN_WORKERS: '1' }, { startTimeoutMs: 180_000 });
    cleanups.push(() => api.stop());
    const ready = await http('GET', `${api.url}/ready`);
    expect(ready).toEqual({ status: 200, body: { ready: true, checks: { database: 'ok', migrations: 'ok', carriers: 'not_checked' }, failed: null } });
    const status = await http('GET', `${api.url}/status`);
    expect(status.body).toMatchObject({ status: 'operational', services: { outbound: 'operational', inbound: 'operational', delivery_receipts: 'operational' } });
    const pipeline = await http('GET', `${api.url}/admin/health`, 'api-role-admin');
    expect(pipeline.body).toMatchObject({ carriers: [], carriers_checked: false });

    // The carrier link runs in another service on the same database: a message accepted by the API is delivered.
    const workers = await startProcess({ ...env, DATA_DIR: path.join(dir, 'workers'), TASMAN_ROLES: 'workers' }, { startTimeoutMs: 180_000 });
    cleanups.push(() => workers.stop());
    const created = await http('POST', `${api.url}/admin/accounts`, 'api-role-admin', { business_name: 'API Role Pty Ltd', email: 'api-role@example.com' });
    const key = created.body.api_key as string;
    const sent = await http('POST', `${api.url}/send`, key, { to: '0412 345 678', message: 'Hello from an API-only process' });
    expect(sent.status).toBe(200);
    await pollUntil(
      () => http('GET', `${api.url}/message/${sent.body.message_id as string}`, key),
      (r) => (r.body.message as { status?: string } | undefined)?.status === 'delivered', 'the message delivered by the workers service', 120_000, 200,
    );
    expect((await http('GET', `${api.url}/ready`)).status).toBe(200);
  });
});
