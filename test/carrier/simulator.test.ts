import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/carrier/simulator/simulator.ts';
import { createControlServer } from '../../src/carrier/simulator/control.ts';
import { createSmppCarrier } from '../../src/carrier/smpp/smpp-carrier.ts';
import type { Carrier } from '../../src/carrier/carrier.ts';
import { createRecorder, until } from './support.ts';

describe('our carrier against our simulator', () => {
  let sim: Simulator;
  let carrier: Carrier;
  const rec = createRecorder();

  beforeAll(async () => {
    sim = createSimulator({ port: 0, dlrDelayMs: 20, resendAfterMs: 2_000, retryDelayMs: 50 });
    await sim.start();
    carrier = createSmppCarrier({ host: '127.0.0.1', port: sim.port, systemId: 'tasman', password: 'pw', window: 10, tps: 0 });
    await carrier.start(rec);
    expect(carrier.health()).toMatchObject({ connected: true, bound: true });
  });

  afterAll(async () => {
    await carrier.stop();
    await sim.stop();
  });

  const send = (to: string, text = 'Hello from Tasman') =>
    carrier.submit({ id: `m-${to}-${text.length}`, from: '+61400000001', to, text, receipt: true });

  it.each([
    ['+61412345678', 'delivered'],
    ['+61412345999', 'undelivered'],
    ['+61412345998', 'expired'],
  ])('%s gets a %s receipt', async (to, state) => {
    const result = await send(to);
    if (!result.ok) throw new Error(result.message);
    const receipt = await rec.receipt((r) => r.smscMessageId === result.smscMessageId);
    expect(receipt).toMatchObject({ state, final: true });
    expect(receipt.doneAt).toBeInstanceOf(Date);
  });

  it('997 is accepted but never gets a receipt', async () => {
    const result = await send('+61412345997');
    expect(result.ok).toBe(true);
    // A later message's receipt arriving first shows the 997 one is not just slow.
    const control = await send('+61412345000');
    if (!control.ok || !result.ok) throw new Error('submit failed');
    await rec.receipt((r) => r.smscMessageId === control.smscMessageId);
    expect(rec.receipts.find((r) => r.smscMessageId === result.smscMessageId)).toBeUndefined();
  });

  it('996 is refused permanently', async () => {
    expect(await send('+61412345996')).toMatchObject({ ok: false, permanent: true, errorCode: 'ESME_RINVDSTADR' });
  });

  it('a three-part message gets a receipt per segment', async () => {
    const result = await send('+61412345001', 'x'.repeat(400));
    if (!result.ok) throw new Error(result.message);
    expect(result.segmentIds).toHaveLength(3);
    expect(result.smscMessageId).toBe(result.segmentIds?.[0]);
    for (const id of result.segmentIds ?? []) await rec.receipt((r) => r.smscMessageId === id);
  });

  it('resends a receipt whose handler failed', async () => {
    rec.failNext(1);
    const result = await send('+61412345002');
    if (!result.ok) throw new Error(result.message);
    await rec.receipt((r) => r.smscMessageId === result.smscMessageId);
  });

  it('injects a long MO message as parts, also through the control endpoint', async () => {
    const text = 'Reply ' + 'y'.repeat(200);
    await sim.injectInbound({ from: '+61499999999', to: '+61400000001', text });
    const parts = rec.inbound.filter((m) => m.from === '+61499999999');
    expect(parts).toHaveLength(2);
    expect(parts.map((p) => p.part?.seq).sort()).toEqual([1, 2]);
    expect(parts.sort((a, b) => (a.part?.seq ?? 0) - (b.part?.seq ?? 0)).map((p) => p.text).join('')).toBe(text);

    const control = createControlServer({ simulators: [sim], port: 0 });
    await control.start();
    try {
      const res = await fetch(`http://127.0.0.1:${control.port}/inbound`, {
        method: 'POST', body: JSON.stringify({ from: '+64211234567', to: '+61400000001', text: 'STOP' }),
      });
      expect(res.status).toBe(200);
      await rec.inboundWhere((m) => m.from === '+64211234567' && m.text === 'STOP');
      const bad = await fetch(`http://127.0.0.1:${control.port}/inbound`, { method: 'POST', body: '{}' });
      expect(bad.status).toBe(400);
      // Only one SMSC here: a second does not exist.
      const none = await fetch(`http://127.0.0.1:${control.port}/inbound`, {
        method: 'POST', body: JSON.stringify({ from: '+64211234567', to: '+61400000001', text: 'x', smsc: 2 }),
      });
      expect(none.status).toBe(400);
    } finally {
      await control.stop();
    }
  });

  it('reports health', async () => {
    await until(() => carrier.health().inFlight === 0);
    expect(carrier.health()).toEqual({ connected: true, bound: true, inFlight: 0, lastError: null });
  });
});
