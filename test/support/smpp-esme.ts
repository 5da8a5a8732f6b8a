// Tests of Tasman's SMPP server: the app with the server on (workers role, an ephemeral port) and ESMEs on the npm
// `smpp` package's client, an SMPP implementation nobody on the project wrote. Sessions close with the app.
import { afterAll, beforeAll } from 'vitest';
import { once } from 'node:events';
import smpp, { type PDU, type Session } from 'smpp';
import { createTestApp, type TestApp } from './app.ts';

export type Esme = Session & { closed: Promise<void> };

export function useSmppServerApp(): { app(): TestApp; connect(): Promise<Esme> } {
  let t: TestApp;
  const sessions: Session[] = [];
  beforeAll(async () => { t = await createTestApp({ SMPP_SERVER_PORT: '0' }, { workers: true }); });
  afterAll(async () => {
    for (const s of sessions) s.destroy();
    await t.close();
  });
  return {
    app: () => t,
    async connect() {
      const session = smpp.connect({ host: '127.0.0.1', port: t.smppServer!.port });
      sessions.push(session);
      session.on('error', () => {});
      const closed = once(session as unknown as NodeJS.EventEmitter, 'close').then(() => {});
      await once(session as unknown as NodeJS.EventEmitter, 'connect');
      return Object.assign(session, { closed });
    },
  };
}

/** Sends one request by the package's name for it and resolves with the response. */
export const ask = (session: Session, command: string, options: Record<string, unknown> = {}): Promise<PDU> =>
  new Promise((resolve) => (session as unknown as Record<string, (o: Record<string, unknown>, cb: (p: PDU) => void) => void>)[command]!(options, resolve));
