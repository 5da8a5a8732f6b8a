import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildDashboard, launchChromium } from './browser.ts';
import { startProcess, type TasmanProcess } from './process.ts';
import { PASSWORD } from './sessions.ts';
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

/**
 * Creates an account with the operator token and signs its owner in on the page through the invite link (the
 * Overview shown): answers the account's id and API key.
 */
export async function signInNewOwner(s: ReturnType<typeof useTasmanInChromium>, account: { business_name: string; email: string; credits?: number }): Promise<{ accountId: string; apiKey: string }> {
  const created = await (await fetch(`${s.proc.url}/admin/accounts`, {
    method: 'POST', headers: { authorization: `Bearer ${s.adminToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify(account),
  })).json() as { account_id: string; owner_invite_url: string; api_key: string };
  const invite = new URL(created.owner_invite_url);
  await s.page.goto(`${s.proc.url}${invite.pathname}${invite.hash}`);
  await s.page.getByLabel('Password').fill(PASSWORD);
  await s.page.getByRole('button', { name: 'Set password' }).click();
  await s.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  return { accountId: created.account_id, apiKey: created.api_key };
}
