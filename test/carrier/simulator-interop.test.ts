// Our simulator against the npm `smpp` package as ESME, and our carrier over TLS to the simulator.
import { afterEach, describe, expect, it } from 'vitest';
import smpp, { type PDU } from 'smpp';
import tls from 'node:tls';
import net from 'node:net';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, type Simulator } from '../../src/carrier/simulator/simulator.ts';
import { createSmppCarrier } from '../../src/carrier/smpp/smpp-carrier.ts';
import { createRecorder, until } from './support.ts';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function startSim(extra: Partial<Parameters<typeof createSimulator>[0]> = {}): Promise<Simulator> {
  const sim = createSimulator({ port: 0, dlrDelayMs: 10, resendAfterMs: 300, retryDelayMs: 20, ...extra });
  await sim.start();
  cleanup.push(() => sim.stop());
  return sim;
}

describe('simulator with the npm smpp client', () => {
  it('refuses bad credentials when configured, and resends a receipt whose deliver_sm_resp never came', async () => {
    const sim = await startSim({ systemId: 'tasman', password: 'pw' });
    const session = smpp.connect({ host: '127.0.0.1', port: sim.port });
    cleanup.push(() => { session.destroy(); });
    session.on('error', () => {});
    await once(session as unknown as NodeJS.EventEmitter, 'connect');
    const call = (fn: 'bind_transceiver' | 'submit_sm', options: Record<string, unknown>): Promise<PDU> =>
      new Promise((resolve) => session[fn](options, resolve));

    expect((await call('bind_transceiver', { system_id: 'tasman', password: 'nope' })).command_status).toBe(0x0e);
    expect((await call('bind_transceiver', { system_id: 'tasman', password: 'pw' })).command_status).toBe(0);

    const receipts: PDU[] = [];
    session.on('deliver_sm', (pdu) => {
      receipts.push(pdu);
      if (receipts.length > 1) session.send(pdu.response()); // ignore the first one
    });
    const resp = await call('submit_sm', { destination_addr: '61412345999', short_message: 'hi', registered_delivery: 1 });
    expect(resp.command_status).toBe(0);
    expect(resp.message_id).toMatch(/^[0-9A-F]{12}$/);
    await until(() => receipts.length >= 2, 20_000, 'the resent receipt');
    for (const r of receipts) {
      expect(r).toMatchObject({ esm_class: 4, receipted_message_id: resp.message_id, message_state: 5 });
      expect((r.short_message as { message: string }).message).toMatch(new RegExp(`^id:${resp.message_id} .*stat:UNDELIV err:001 text:hi$`));
    }

    const refused = await call('submit_sm', { destination_addr: '61412345996', short_message: 'hi' });
    expect(refused.command_status).toBe(0x0b);
  });
});

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

describe.skipIf(!hasOpenssl)('carrier over TLS', () => {
  it('verifies the certificate: a trusted CA binds, an unknown one does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tasman-tls-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]);
    expect(made.status).toBe(0);
    const cert = readFileSync(join(dir, 'cert.pem'));
    const sim = await startSim();
    // A TLS terminator in front of the simulator, as stunnel would be in front of a plain SMSC.
    const proxy = tls.createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (socket) => {
      const upstream = net.connect(sim.port, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    cleanup.push(() => new Promise<void>((r) => proxy.close(() => r())));
    const port = (proxy.address() as net.AddressInfo).port;
    const base = { host: '127.0.0.1', port, systemId: 'a', password: 'b', window: 5, tps: 0, startWaitMs: 3_000 };

    const trusted = createSmppCarrier({ ...base, tls: { ca: cert } });
    cleanup.push(() => trusted.stop());
    const rec = createRecorder();
    await trusted.start(rec);
    expect(trusted.health().bound).toBe(true);
    const result = await trusted.submit({ id: 't', from: 'Tasman', to: '+61412345678', text: 'over tls', receipt: true });
    if (!result.ok) throw new Error(result.message);
    await rec.receipt((r) => r.smscMessageId === result.smscMessageId);

    const untrusted = createSmppCarrier({ ...base, tls: true, startWaitMs: 500, reconnect: { initialMs: 10_000 } });
    cleanup.push(() => untrusted.stop());
    await untrusted.start(createRecorder());
    await until(() => untrusted.health().lastError !== null, 20_000, 'the TLS failure');
    expect(untrusted.health()).toMatchObject({ bound: false });
    expect(untrusted.health().lastError).toMatch(/self[- ]signed|certificate/i);
  });
});
