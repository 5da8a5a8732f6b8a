import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { livePostmaster } from '../../src/platform/db/embedded/process.ts';
import { startProcess, type TasmanProcess } from '../support/process.ts';

// The real thing: `tasman start` in a child process on a fresh data directory, driven over HTTP.
describe('tasman start (embedded PostgreSQL)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-e2e-'));
  let proc: TasmanProcess | null = null;
  const cluster = path.join(dataDir, 'postgres');
  afterAll(async () => {
    await proc?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function http(method: string, url: string, token: string, body?: unknown) {
    const res = await request(url, {
      method: method as 'GET',
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.statusCode, body: await res.body.json() as Record<string, unknown> };
  }

  it('serves the API on its own PostgreSQL with a generated operator token, and keeps data across a restart', async () => {
    proc = await startProcess({ DATA_DIR: dataDir });
    // The banner names where everything is, the dashboard included.
    const started = proc.logs.map((l) => { try { return JSON.parse(l) as Record<string, unknown>; } catch { return {}; } })
      .find((e) => e.msg === 'tasman started');
    expect(started).toMatchObject({ url: proc.url, docs: `${proc.url}/docs`, dashboard: `${proc.url}/app/` });
    const token = readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
    const created = await http('POST', `${proc.url}/admin/accounts`, token, { business_name: 'E2E Pty Ltd', email: 'e2e@example.com' });
    expect(created.status).toBe(201);
    const key = created.body.api_key as string;
    const sent = await http('POST', `${proc.url}/send`, key, { to: '0412 345 678', message: 'Hello from the real process' });
    expect(sent.status).toBe(200);
    expect(sent.body.credits_remaining).toBe(4);
    const read = await http('GET', `${proc.url}/message/${sent.body.message_id}`, key);
    expect(read.status).toBe(200);
    expect((read.body.message as { recipient: string }).recipient).toBe('+61412345678');
    expect(livePostmaster(cluster)).not.toBeNull();
    expect(await proc.stop('SIGTERM')).toBe(0);
    // A clean stop takes the server down with the process.
    expect(livePostmaster(cluster)).toBeNull();

    proc = await startProcess({ DATA_DIR: dataDir });
    const balance = await http('GET', `${proc.url}/balance`, key);
    expect(balance.body).toEqual({ credits: 4 });
    const again = await http('GET', `${proc.url}/message/${sent.body.message_id}`, key);
    expect(again.status).toBe(200);

    // kill -9 leaves the server running without its owner; the next start adopts it, and stops it on exit.
    await proc.stop('SIGKILL');
    const orphan = livePostmaster(cluster);
    expect(orphan).not.toBeNull();
    proc = await startProcess({ DATA_DIR: dataDir });
    expect(livePostmaster(cluster)).toBe(orphan);
    expect((await http('GET', `${proc.url}/balance`, key)).body).toEqual({ credits: 4 });
    expect(await proc.stop('SIGTERM')).toBe(0);
    expect(livePostmaster(cluster)).toBeNull();
    proc = null;
  }, 300_000); // three starts, the first with initdb: minutes on a loaded machine

  it('refuses bad configuration with one line naming the variable', async () => {
    const { spawnSync } = await import('node:child_process');
    const bin = new URL('../../bin/tasman.js', import.meta.url).pathname;
    const res = spawnSync(process.execPath, [bin, 'start'], { env: { ...process.env, PORT: 'eighty' }, encoding: 'utf8' });
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe('tasman: invalid configuration: PORT must be a whole number, got "eighty"');
  });
});
