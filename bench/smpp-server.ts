// Submits per second through Tasman's SMPP server (the npm `smpp` package's client as the ESMEs) against POST /send
// on the same `tasman start` (API and workers, the built-in SMSC), in alternating rounds.
// Knobs: BENCH_SECONDS (10) per round, BENCH_ROUNDS (3), BENCH_BINDS (10 accounts, one transceiver bind each),
// BENCH_WINDOW (10 submits outstanding per bind; POST /send gets binds × window connections).
// Output: one line per round and side {bench, side, submits_per_s, refused}, then the medians and their ratio.
// Usage: DATABASE_URL=postgres://… npx tsx bench/smpp-server.ts   (unset: the embedded PostgreSQL in a temporary directory)
import net from 'node:net';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import smpp, { type PDU, type Session } from 'smpp';
import { benchSetup, call, deliverableRecipients, sendLoad, startTasmanProcess } from './tasman-process.ts';
import { median } from './stats.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const bindCount = Number(process.env.BENCH_BINDS ?? 10);
const window = Number(process.env.BENCH_WINDOW ?? 10);
const { databaseUrl, dataDir, print } = benchSetup('smpp-server');

const freePort = async (): Promise<number> => {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
};

const smppPort = await freePort();
const proc = await startTasmanProcess({
  DATA_DIR: dataDir, LOG_LEVEL: 'info', RATE_LIMIT_RPS: '1000000', RATE_LIMIT_CONCURRENCY: '100000', AUTH_FAILURE_LIMIT: '1000000',
  SMPP_SERVER_PORT: String(smppPort), SMPP_SERVER_WINDOW: String(window),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl, TASMAN_ADMIN_TOKEN: 'bench-admin' } : {}),
});
const sessions: Session[] = [];
try {
  const token = databaseUrl ? 'bench-admin' : readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
  const keys: string[] = [];
  const credentials: Array<{ system_id: string; password: string }> = [];
  for (let i = 0; i < bindCount; i += 1) {
    const created = await call('POST', `${proc.url}/admin/accounts`, token, { business_name: `Bench ${i}`, email: `bench${i}@example.com`, credits: 10_000_000 });
    keys.push(created.json.api_key as string);
    const cred = await call('POST', `${proc.url}/smpp-credentials`, created.json.api_key as string, { name: 'bench', tps: 500, max_binds: 1 });
    credentials.push(cred.json as { system_id: string; password: string });
  }
  for (const cred of credentials) {
    const session = smpp.connect({ host: '127.0.0.1', port: smppPort });
    session.on('error', () => {});
    await once(session as unknown as NodeJS.EventEmitter, 'connect');
    const resp = await new Promise<PDU>((resolve) => session.bind_transceiver({ system_id: cred.system_id, password: cred.password }, resolve));
    if (resp.command_status !== 0) throw new Error(`bind refused: ${resp.command_status}`);
    session.on('deliver_sm', (pdu) => session.send(pdu.response()));
    sessions.push(session);
  }
  const recipient = deliverableRecipients();

  /** Each bind keeps `window` submits outstanding until the round ends; counts the accepted ones. */
  async function smppRound(): Promise<{ perSecond: number; refused: number }> {
    const end = Date.now() + seconds * 1000;
    let accepted = 0;
    let refused = 0;
    const lane = (session: Session) => new Promise<void>((resolve) => {
      const next = () => {
        if (Date.now() >= end) { resolve(); return; }
        session.submit_sm({ destination_addr: recipient().slice(1), dest_addr_ton: 1, short_message: 'Your order has shipped' }, (r: PDU) => {
          if (r.command_status === 0) accepted++; else refused++;
          next();
        });
      };
      next();
    });
    const started = Date.now();
    await Promise.all(sessions.flatMap((s) => Array.from({ length: window }, () => lane(s))));
    return { perSecond: accepted / ((Date.now() - started) / 1000), refused };
  }

  const viaSmpp: number[] = [];
  const viaRest: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const s = await smppRound();
    viaSmpp.push(s.perSecond);
    print({ bench: 'smpp-server', round, side: 'smpp', submits_per_s: Number(s.perSecond.toFixed(1)), refused: s.refused });
    const r = await sendLoad(proc.url, keys, { seconds, connections: bindCount * window, recipient });
    viaRest.push(r.requests.average);
    print({ bench: 'smpp-server', round, side: 'rest', submits_per_s: r.requests.average, refused: r.non2xx });
  }
  print({ bench: 'smpp-server', rounds, smpp_submits_per_s: median(viaSmpp), rest_sends_per_s: median(viaRest), smpp_vs_rest: Number((median(viaSmpp) / median(viaRest)).toFixed(3)) });
} finally {
  for (const s of sessions) s.destroy();
  await proc.stop();
}
