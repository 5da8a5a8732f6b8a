// A forgotten password on a fresh `tasman start` (no SMTP_URL): "Forgot password?" on the sign-in page in Debian's
// Chromium, the link read from the operator's outbox, the reset page, then a sign-in with the new password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startProcess, type TasmanProcess } from '../support/process.ts';
import { pollUntil } from '../support/poll.ts';
import { buildDashboard, haveChromium, launchChromium, seriousViolations } from '../support/browser.ts';

const EMAIL = 'forgetful@harbour.test';
const NEW_PASSWORD = 'a brand new pass phrase';

describe.skipIf(!haveChromium)('a forgotten password, through the outbox, in a browser', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-reset-'));
  let proc: TasmanProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    buildDashboard();
    [proc, browser] = await Promise.all([startProcess({ DATA_DIR: dataDir }), launchChromium()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await proc?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('asks for the email, emails a link (kept in the outbox and logged), and the link sets a new password', async () => {
    const token = readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
    const operator = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    await fetch(`${proc.url}/admin/accounts`, { method: 'POST', headers: operator, body: JSON.stringify({ business_name: 'Harbour Cafe', email: EMAIL }) });

    await page.goto(`${proc.url}/app/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forgot password' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();

    const outbox = await (await fetch(`${proc.url}/admin/outbox?to=${EMAIL}`, { headers: operator })).json() as { mail: Array<{ kind: string; body: string }> };
    const reset = outbox.mail.find((m) => m.kind === 'password_reset')!;
    const link = new URL(/http:\/\/\S+\/app\/reset#[\w-]{43}/.exec(reset.body)![0]);
    // The log line of the kept mail carries the link too (written as the mail is kept; read as it arrives).
    await pollUntil(async () => proc.logs.join('\n'), (logs) => logs.includes(link.hash.slice(1)), 'the log line with the reset link', 10_000);

    await page.goto(`${proc.url}${link.pathname}${link.hash}`);
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { level: 1, name: 'Password changed' }).waitFor();

    const signIn = await fetch(`${proc.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: NEW_PASSWORD }) });
    expect(signIn.status).toBe(200);
  });

  it('the operator console lists the outbox: the invitation and the reset, filtered by address', async () => {
    const token = readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
    await page.goto(`${proc.url}/app/operator`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 2, name: 'Email outbox' }).waitFor();
    await page.getByLabel('To (email)').fill(EMAIL);
    const table = page.getByRole('table', { name: 'Email outbox' });
    await table.getByText('Password reset').waitFor();
    await table.getByText('Invitation').waitFor();
    expect(await table.getByRole('row').count()).toBe(3);
  });
});
