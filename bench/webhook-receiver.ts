// The webhook bench's receiver, forked as its own process (so it shares no event loop with the worker or the
// bench): two HTTP servers on loopback, `fast` answering 200 at once, `slow` answering 200 after SLOW_MS; any
// path under /slow/ on the fast server is slow too (a slow endpoint on the same origin as fast ones). Records
// each request's X-Service-Delivery and arrival time (epoch ms, sub-ms precision), handed over on IPC request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const SLOW_MS = Number(process.env.SLOW_MS ?? 10_000);
const now = () => performance.timeOrigin + performance.now();
let arrivals: Array<[string, number]> = [];

const handler = (slow: boolean) => (req: IncomingMessage, res: ServerResponse) => {
  req.on('data', () => {});
  req.on('end', () => {
    arrivals.push([String(req.headers['x-service-delivery'] ?? ''), now()]);
    const answer = () => { if (!res.destroyed) res.writeHead(200).end(); };
    if (slow || req.url?.startsWith('/slow/')) setTimeout(answer, SLOW_MS); else answer();
  });
};

const listen = async (slow: boolean) => {
  const server = createServer(handler(slow));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

const ports = { fast: await listen(false), slow: await listen(true) };
process.on('message', (msg: { cmd: string }) => {
  // Hands over what arrived since the last take.
  if (msg.cmd === 'take') {
    process.send!({ arrivals });
    arrivals = [];
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ ports });
