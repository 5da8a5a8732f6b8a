import type { Server } from 'node:net';

/** Listens on host:port (0 picks a free port) and resolves with the port actually bound. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(address && typeof address === 'object' ? address.port : port);
    });
  });
}
