import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildDashboard, launchChromium } from './browser.ts';
import { startProcess, type TasmanProcess } from './process.ts';
/**
 * A real `tasman start` on a data directory of its own and Chromium with one page, for a browser test file:
 * registers the hooks that start both (building the dashboard first) and stop them. Read the fields inside tests.
 * `env` is read when the process starts (after the hooks registered before this call), for settings such as an SMSC's port.
 */
export function useTasmanInChromium(prefix: string, env: () => Record<string, string> = () => ({})): {
  readonly proc: TasmanProcess; readonly browser: Browser; readonly page: Page; readonly dataDir: string; adminToken(): string;
} {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  let proc: TasmanProcess | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    buildDashboard();
    [proc, browser] = await Promise.all([startProcess({ ...env(), DATA_DIR: dataDir }), launchChromium()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await proc?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get proc() { return proc!; },
    get browser() { return browser!; },
    get page() { return page!; },
    dataDir,
    adminToken: () => readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim(),
  };
}
