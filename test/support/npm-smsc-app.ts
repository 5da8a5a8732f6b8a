import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { startNpmSmsc, type NpmSmsc } from '../carrier/npm-smsc.ts';
import { until } from '../carrier/support.ts';

/**
 * The whole pipeline bound to an SMSC on the npm `smpp` package for the file: registers the hooks that start the
 * SMSC and a test app with workers bound to it (waiting for the bind), and stop both. Read `smsc` and `app` inside
 * tests, after beforeAll has run. `env` adds settings (the SMPP server's port).
 */
export function useNpmSmscApp(env: Record<string, string> = {}): { readonly smsc: NpmSmsc; readonly app: TestApp } {
  let smsc: NpmSmsc | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    smsc = await startNpmSmsc();
    app = await createTestApp({ SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port), SMPP_TPS: '1000', ...env }, { workers: true });
    await until(() => smsc!.sessions.length > 0, 20_000, 'the bind');
  });
  afterAll(async () => {
    await app?.close();
    await smsc?.stop();
  });
  return {
    get smsc() { return smsc!; },
    get app() { return app!; },
  };
}
