// The window bound as an invariant, against the npm `smpp` SMSC over real TCP: per bind, submits in flight plus
// accepted submits whose ids are not yet committed (settle not yet called) never exceed the window; the bind
// waits when it would. So a crash before the `sent` write resends at most a window per bind.
import { afterEach, describe, expect, it } from 'vitest';
import { createSmppCarrier } from '../../src/carrier/smpp/smpp-carrier.ts';
import type { SubmitResult } from '../../src/carrier/carrier.ts';
import { deliver, startNpmSmsc } from './npm-smsc.ts';
import { createRecorder, until } from './support.ts';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

const WINDOW = 4;
const BINDS = 2;

describe('accepted submits keep their window slot until their ids are committed', () => {
  it('never has more than the window per bind accepted-but-unrecorded, and goes on as they settle', async () => {
    const smsc = await startNpmSmsc();
    cleanup.push(() => smsc.stop());
    const carrier = createSmppCarrier({
      host: '127.0.0.1', port: smsc.port, systemId: 'tasman', password: 'secret', window: WINDOW, tps: 0, binds: BINDS,
      reconnect: { initialMs: 20, maxMs: 200 },
    });
    cleanup.push(() => carrier.stop());
    await carrier.start(createRecorder());
    await until(() => smsc.sessions.length === BINDS, 10_000, 'both binds');

    const results: SubmitResult[] = [];
    const all = Array.from({ length: 20 }, (_, i) => carrier.submit({ id: `m${i}`, from: 'Tasman', to: `+6141234${String(i).padStart(4, '0')}`, text: `n${i}`, receipt: true, settles: true })
      .then((r) => { results.push(r); return r; }));
    await until(() => results.length === WINDOW * BINDS, 10_000, 'a window per bind accepted');
    // A round trip on every session: anything the ESME had written before its answer has reached the SMSC.
    for (const s of smsc.sessions) expect(await deliver(s, { source_addr: '61400000000', destination_addr: 'Tasman', short_message: 'hi' })).toBe(0);
    expect(smsc.submits).toHaveLength(WINDOW * BINDS);
    const perSession = smsc.sessions.map((s) => smsc.submits.filter((r) => r.session === s).length);
    expect(perSession).toEqual([WINDOW, WINDOW]);

    // Three recorded (or given up): exactly three more go, and no more.
    for (const r of results.slice(0, 3)) r.settle?.();
    await until(() => results.length === WINDOW * BINDS + 3, 10_000, 'three more accepted');
    for (const s of smsc.sessions) await deliver(s, { source_addr: '61400000000', destination_addr: 'Tasman', short_message: 'hi' });
    expect(smsc.submits).toHaveLength(WINDOW * BINDS + 3);

    // Everything settles as it is accepted: all twenty go, each once.
    const settleAll = setInterval(() => { for (const r of results) r.settle?.(); }, 5);
    cleanup.push(async () => clearInterval(settleAll));
    expect((await Promise.all(all)).every((r) => r.ok)).toBe(true);
    expect(new Set(smsc.submits.map((s) => s.pdu.destination_addr)).size).toBe(20);
  });

  it('a refused submit gives its slot back at once', async () => {
    const smsc = await startNpmSmsc();
    cleanup.push(() => smsc.stop());
    smsc.onSubmit = (_s, respond) => respond(0x0b);
    const carrier = createSmppCarrier({ host: '127.0.0.1', port: smsc.port, systemId: 't', password: 'p', window: 1, tps: 0, reconnect: { initialMs: 20, maxMs: 200 } });
    cleanup.push(() => carrier.stop());
    await carrier.start(createRecorder());
    for (let i = 0; i < 3; i++) expect(await carrier.submit({ id: `r${i}`, from: 'Tasman', to: '+61412345678', text: 'x', receipt: true, settles: true })).toMatchObject({ ok: false, permanent: true });
    expect(smsc.submits).toHaveLength(3);
  });
});
