// Loopback HTTP control for the simulators running alone (`tasman simulator`): POST /inbound {from, to, text}
// makes the first send that MO message; {"smsc": N} picks the Nth of SIM_CARRIERS (1-based). Binds to 127.0.0.1
// only: it has no authentication.
import http from 'node:http';
import type { Simulator } from './simulator.ts';
import { listen } from './listen.ts';

export interface ControlServer {
  readonly port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

export function createControlServer(options: { simulators: Array<Pick<Simulator, 'injectInbound'>>; port: number; host?: string }): ControlServer {
  const host = options.host ?? '127.0.0.1';
  let port = options.port;

  const reply = (res: http.ServerResponse, status: number, body: object): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/inbound') { reply(res, 404, { error: 'not found' }); return; }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) { reply(res, 413, { error: 'body too large' }); req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', () => {
      let body: unknown;
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { body = undefined; }
      const { from, to, text, smsc = 1 } = (body ?? {}) as Record<string, unknown>;
      if (typeof from !== 'string' || typeof to !== 'string' || typeof text !== 'string' || !from || !to) {
        reply(res, 400, { error: 'expected JSON {from, to, text} with string values' });
        return;
      }
      const simulator = typeof smsc === 'number' && Number.isInteger(smsc) ? options.simulators[smsc - 1] : undefined;
      if (!simulator) {
        reply(res, 400, { error: `smsc must be a whole number from 1 to ${options.simulators.length}` });
        return;
      }
      simulator.injectInbound({ from, to, text }).then(
        () => reply(res, 200, { ok: true }),
        (err: Error) => reply(res, 409, { error: err.message }),
      );
    });
  });

  return {
    get port() { return port; },
    start: async () => { port = await listen(server, options.port, host); },
    stop: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
