import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import smpp, { type PDU } from 'smpp';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

// The SMPP server with SMPP_SERVER_TLS_CERT/_KEY speaks TLS: the npm `smpp` client binds and submits over it,
// verifying the certificate.
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

describe.skipIf(!hasOpenssl)('SMPP server over TLS', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tasman-smpp-tls-'));
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]);
    expect(made.status).toBe(0);
    t = await createTestApp({ SMPP_SERVER_PORT: '0', SMPP_SERVER_TLS_CERT: join(dir, 'cert.pem'), SMPP_SERVER_TLS_KEY: join(dir, 'key.pem') }, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds and submits over TLS', async () => {
    const acct = await createAccount(t.app, { credits: 5 });
    const cred = (await call(t.app, acct.apiKey, 'POST', '/smpp-credentials', { name: 'tls' })).body as { system_id: string; password: string };
    const session = smpp.connect({ host: '127.0.0.1', port: t.smppServer!.port, tls: true, ca: readFileSync(join(dir, 'cert.pem')) } as { host: string; port: number });
    session.on('error', () => {});
    try {
      await once(session as unknown as NodeJS.EventEmitter, 'secureConnect');
      const ask = (command: 'bind_transceiver' | 'submit_sm', options: Record<string, unknown>) => new Promise<PDU>((resolve) => session[command](options, resolve));
      expect((await ask('bind_transceiver', { system_id: cred.system_id, password: cred.password })).command_status).toBe(0);
      const resp = await ask('submit_sm', { destination_addr: mobile().slice(1), dest_addr_ton: 1, short_message: 'over TLS' });
      expect(resp.command_status).toBe(0);
      expect((await call(t.app, acct.apiKey, 'GET', `/message/${resp.message_id as string}`)).status).toBe(200);
    } finally {
      session.destroy();
    }
  });
});
