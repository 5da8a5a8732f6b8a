import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testDatabaseUrl } from '../support/scratch-db.ts';

// `tasman start` refusing to start: exit 1 within seconds, one line on stderr that names what to fix, no stack.

const bin = fileURLToPath(new URL('../../bin/tasman.js', import.meta.url));

async function start(env: Record<string, string>, command = 'start'): Promise<{ code: number | null; stderr: string; ms: number }> {
  const began = Date.now();
  const child = spawn(process.execPath, [bin, command], {
    env: { ...process.env, PORT: '0', SIM_PORT: '0', SIM_CONTROL_PORT: '0', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  // Generous: a cluster (primary, API process, workers process) starts slowly on a busy two-core machine.
  const timer = setTimeout(() => child.kill('SIGKILL'), 170_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, stderr: stderr.trim(), ms: Date.now() - began };
}

async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as { port: number }).port, server };
}

const oneLine = (s: string) => expect(s.split('\n')).toHaveLength(1);

describe('tasman start refuses clearly', () => {
  it('DATABASE_URL without a carrier, unless TASMAN_SIMULATOR=true', async () => {
    const res = await start({ DATABASE_URL: testDatabaseUrl() });
    expect(res.code).toBe(1);
    oneLine(res.stderr);
    expect(res.stderr).toMatch(/^tasman: DATABASE_URL is set but SMPP_HOST is not/);
  });

  // Both through the cluster (TASMAN_WORKERS=1): the failing child's line is the only one.
  it('PORT in use: exits with one line naming PORT', { timeout: 180_000 }, async () => {
    const { port, server } = await takenPort();
    try {
      const res = await start({ DATABASE_URL: testDatabaseUrl(), TASMAN_SIMULATOR: 'true', HOST: '127.0.0.1', PORT: String(port), TASMAN_WORKERS: '1' });
      expect(res.code).toBe(1);
      oneLine(res.stderr);
      expect(res.stderr).toBe(`tasman: PORT ${port} is already in use: stop the process using it or set PORT to a free port`);
    } finally {
      server.close();
    }
  });

  it('SIM_PORT in use: exits with one line naming SIM_PORT', { timeout: 180_000 }, async () => {
    const { port, server } = await takenPort();
    try {
      const res = await start({ DATABASE_URL: testDatabaseUrl(), TASMAN_SIMULATOR: 'true', SIM_PORT: String(port), TASMAN_WORKERS: '1' });
      expect(res.code).toBe(1);
      oneLine(res.stderr);
      expect(res.stderr).toContain(`SIM_PORT ${port} is already in use`);
    } finally {
      server.close();
    }
  });

  it('tasman simulator: SIM_PORT or SIM_CONTROL_PORT in use, one line naming it', async () => {
    const { port, server } = await takenPort();
    try {
      for (const setting of ['SIM_PORT', 'SIM_CONTROL_PORT']) {
        const res = await start({ [setting]: String(port) }, 'simulator');
        expect(res.code, setting).toBe(1);
        oneLine(res.stderr);
        expect(res.stderr).toBe(`tasman: ${setting} ${port} is already in use: stop the process using it or set ${setting} to a free port`);
      }
    } finally {
      server.close();
    }
  });

  it('DATA_DIR not writable', async () => {
    const res = await start({ DATA_DIR: '/dev/null/tasman' });
    expect(res.code).toBe(1);
    oneLine(res.stderr);
    expect(res.stderr).toMatch(/^tasman: DATA_DIR \/dev\/null\/tasman is not writable \(ENOTDIR\)/);
  });

  it('a malformed TASMAN_SECRET_KEY: one line naming it, before anything starts', async () => {
    const res = await start({ TASMAN_SECRET_KEY: 'not-a-key', DATABASE_URL: testDatabaseUrl(), TASMAN_SIMULATOR: 'true' });
    expect(res.code).toBe(1);
    oneLine(res.stderr);
    expect(res.stderr).toMatch(/^tasman: invalid configuration: TASMAN_SECRET_KEY must be 32 bytes written as 64 hex characters or base64 .*openssl rand -hex 32$/);
  });

  it('a generated key file in DATA_DIR that holds no key: one line naming the file', { timeout: 180_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-bad-key-'));
    try {
      writeFileSync(path.join(dataDir, 'secret.key'), 'garbage\n');
      const res = await start({ DATA_DIR: dataDir, DATABASE_URL: testDatabaseUrl(), TASMAN_SIMULATOR: 'true', TASMAN_WORKERS: '0' });
      expect(res.code).toBe(1);
      oneLine(res.stderr);
      expect(res.stderr).toBe(`tasman: ${path.join(dataDir, 'secret.key')} does not hold a valid key (64 hex characters); restore it or remove it to start over`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a database that does not answer: retries for DATABASE_CONNECT_TIMEOUT, then one line naming DATABASE_URL', async () => {
    const { port, server } = await takenPort();
    server.close(); // nothing listens there now
    const res = await start({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/tasman`, TASMAN_SIMULATOR: 'true', DATABASE_CONNECT_TIMEOUT: '2',
    });
    expect(res.code).toBe(1);
    oneLine(res.stderr);
    expect(res.stderr).toMatch(new RegExp(`^tasman: cannot connect to the database in DATABASE_URL \\(127\\.0\\.0\\.1:${port}/tasman\\) after trying for 2 s`));
    expect(res.ms).toBeGreaterThanOrEqual(1_500);
  });

  it('a database that does not exist', async () => {
    const url = new URL(testDatabaseUrl());
    url.pathname = '/tasman_no_such_database';
    const res = await start({ DATABASE_URL: url.toString(), TASMAN_SIMULATOR: 'true' });
    expect(res.code).toBe(1);
    oneLine(res.stderr);
    expect(res.stderr).toMatch(/^tasman: the database in DATABASE_URL \(.*\/tasman_no_such_database\) does not exist/);
  });
});
