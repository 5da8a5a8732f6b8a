// HTTPS without a proxy: `tasman start` with TLS_CERT_FILE and TLS_KEY_FILE, certificates made by openssl here and
// signed by a CA of the test's own, real TLS connections that trust only that CA, and a renewal written over the
// files while the process runs (served to new connections without a restart; a broken renewal keeps the old one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { startProcess, type TasmanProcess } from '../support/process.ts';
import { pollUntil } from '../support/poll.ts';
import { testDatabaseUrl } from '../support/scratch-db.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'tasman-tls-'));
const at = (name: string) => path.join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

/** A P-256 key and a certificate for 127.0.0.1 and localhost signed by the test CA. */
function issue(name: string): void {
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
  writeFileSync(at(`${name}.ext`), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-out', `${name}.pem`, '-extfile', `${name}.ext`);
}

const fingerprint = (file: string) => new X509Certificate(readFileSync(at(file))).fingerprint256;

/** Replaces a served file the way a renewal does: a new file renamed over the old name. */
function replace(target: string, from: string): void {
  copyFileSync(at(from), at(`${target}.new`));
  renameSync(at(`${target}.new`), at(target));
}

let server: TasmanProcess;
let ca: Buffer;
let agent: Agent;

/** The certificate a new TLS connection is served, trusting only the test CA. */
function served(port: number, options: { maxVersion?: 'TLSv1.1' | 'TLSv1.3' } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ...options }, () => {
      const cert = socket.getPeerX509Certificate();
      socket.end();
      resolve(cert?.fingerprint256 ?? '');
    });
    socket.once('error', reject);
  });
}

beforeAll(async () => {
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Tasman test CA');
  ca = readFileSync(at('ca.pem'));
  issue('first');
  issue('renewed');
  copyFileSync(at('first.pem'), at('served.pem'));
  copyFileSync(at('first.key'), at('served.key'));
  agent = new Agent({ connect: { ca } });
  server = await startProcess({
    DATABASE_URL: testDatabaseUrl(), TASMAN_ROLES: 'api', TASMAN_ADMIN_TOKEN: 'tls-test-operator', TASMAN_SECRET_KEY: 'cd'.repeat(32),
    DATA_DIR: at('data'), TLS_CERT_FILE: at('served.pem'), TLS_KEY_FILE: at('served.key'),
  }, { startTimeoutMs: 180_000 });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await agent?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTPS with TLS_CERT_FILE and TLS_KEY_FILE', () => {
  it('serves the API and the dashboard over TLS 1.2 or later, and nothing in plain HTTP', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(server.url).port);
    const ready = await request(`${server.url}/ready`, { dispatcher: agent });
    expect(ready.statusCode).toBe(200);
    expect(await ready.body.json()).toMatchObject({ ready: true });
    const dashboard = await request(`${server.url}/app/`, { dispatcher: agent });
    expect(dashboard.statusCode).toBe(200);
    expect(await dashboard.body.text()).toContain('<html');
    const accounts = await request(`${server.url}/admin/accounts?limit=1`, { dispatcher: agent, headers: { authorization: 'Bearer tls-test-operator' } });
    expect(accounts.statusCode).toBe(200);
    await accounts.body.dump();

    // The CLI on the same host defaults to HTTPS on PORT when TLS_CERT_FILE is set, trusting the CA it is told of.
    const { TASMAN_URL: _unset, ...env } = process.env;
    const cli = spawnSync(process.execPath, [fileURLToPath(new URL('../../bin/tasman.js', import.meta.url)), 'admin', 'operator', 'list', '--json'], {
      env: { ...env, PORT: String(port), TASMAN_ADMIN_TOKEN: 'tls-test-operator', TLS_CERT_FILE: at('served.pem'), TLS_KEY_FILE: at('served.key'), NODE_EXTRA_CA_CERTS: at('ca.pem') },
      encoding: 'utf8',
    });
    expect(cli.stderr).toBe('');
    expect(JSON.parse(cli.stdout)).toMatchObject({ total: expect.any(Number) });
    expect(await served(port)).toBe(fingerprint('first.pem'));
    await expect(served(port, { maxVersion: 'TLSv1.1' })).rejects.toThrow();
    // Without the test CA the certificate is not trusted: the connection really is verified.
    await expect(request(`${server.url}/ready`)).rejects.toThrow();
    await expect(request(`http://127.0.0.1:${port}/ready`, { reset: true }).then((r) => r.body.text())).rejects.toThrow();
  });

  it('serves a renewed certificate without a restart, and keeps it when a later renewal is broken', { timeout: 120_000 }, async () => {
    const port = Number(new URL(server.url).port);
    const pid = server.child.pid;
    replace('served.key', 'renewed.key');
    replace('served.pem', 'renewed.pem');
    await pollUntil(() => served(port), (f) => f === fingerprint('renewed.pem'), 'the renewed certificate served', 60_000, 200);
    // The line is written after the swap: it may reach us just after the new certificate does.
    await pollUntil(async () => server.logs.some((l) => l.includes('"msg":"TLS certificate reloaded"') && l.includes('CN=renewed')), Boolean, 'the reload logged', 30_000, 100);
    const ready = await request(`${server.url}/ready`, { dispatcher: agent, reset: true });
    expect(ready.statusCode).toBe(200);
    await ready.body.dump();

    // A key that is not the certificate's: refused with one log line, the renewed certificate still served.
    replace('served.key', 'first.key');
    await pollUntil(async () => server.logs.find((l) => l.includes('TLS certificate not reloaded')), Boolean, 'the refused reload logged', 60_000, 200);
    const refused = server.logs.find((l) => l.includes('TLS certificate not reloaded'))!;
    expect(JSON.parse(refused)).toMatchObject({ level: 50, msg: expect.stringContaining(`TLS_KEY_FILE ${at('served.key')} is not the private key of the certificate`) });
    expect(await served(port)).toBe(fingerprint('renewed.pem'));
    expect(server.child.pid).toBe(pid);
    expect(server.child.exitCode).toBeNull();
  });
});

describe('tasman start with a certificate it cannot serve', () => {
  const bin = fileURLToPath(new URL('../../bin/tasman.js', import.meta.url));
  // Each start has its own data directory: the four run at once, and the simulator's journal is per directory.
  let starts = 0;
  async function refused(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [bin, 'start'], {
      env: {
        ...process.env, PORT: '0', SIM_PORT: '0', SIM_CONTROL_PORT: '0', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', DATABASE_URL: testDatabaseUrl(), TASMAN_ROLES: 'api', TASMAN_WORKERS: '0',
        TASMAN_SIMULATOR: 'true', TASMAN_SECRET_KEY: 'cd'.repeat(32), TASMAN_ADMIN_TOKEN: 'tls-test-operator', DATA_DIR: at(`refused-${++starts}`), ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, stderr: stderr.trim() };
  }

  it('exits 1 with one line naming the setting and the file', { timeout: 120_000 }, async () => {
    writeFileSync(at('garbage.pem'), 'not a certificate\n');
    const [mismatch, garbage, missing, half] = await Promise.all([
      refused({ TLS_CERT_FILE: at('first.pem'), TLS_KEY_FILE: at('renewed.key') }),
      refused({ TLS_CERT_FILE: at('garbage.pem'), TLS_KEY_FILE: at('first.key') }),
      refused({ TLS_CERT_FILE: at('first.pem'), TLS_KEY_FILE: at('absent.key') }),
      refused({ TLS_CERT_FILE: at('first.pem') }),
    ]);
    expect(mismatch).toEqual({ code: 1, stderr: `tasman: TLS_KEY_FILE ${at('renewed.key')} is not the private key of the certificate in TLS_CERT_FILE ${at('first.pem')}` });
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toMatch(new RegExp(`^tasman: TLS_CERT_FILE ${at('garbage.pem')} holds no PEM certificate \\(.+\\)$`));
    expect(missing).toEqual({ code: 1, stderr: `tasman: TLS_KEY_FILE ${at('absent.key')} cannot be read (ENOENT)` });
    expect(half).toEqual({ code: 1, stderr: 'tasman: invalid configuration: TLS_CERT_FILE is set without TLS_KEY_FILE: set both to serve HTTPS, or neither' });
  });
});
