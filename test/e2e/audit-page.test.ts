// The dashboard's Audit log page in Debian's Chromium against a real `tasman start`: the owner's changes and a
// refused attempt are listed with who, from where and what changed; the filters narrow the list; Export CSV
// downloads what the filters show; axe finds nothing serious; screenshots at desktop and phone width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startProcess, type TasmanProcess } from '../support/process.ts';
import { buildDashboard, haveChromium, launchChromium, screenshot, seriousViolations } from '../support/browser.ts';
import { parseCsv } from '../../web/src/lib/format.ts';

const PASSWORD = 'harbour-lights-at-seven';

describe.skipIf(!haveChromium)('the Audit log page in a browser', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-audit-'));
  let proc: TasmanProcess;
  let browser: Browser;
  let page: Page;
  let token: string;

  async function as(bearer: string, method: string, url: string, body?: unknown) {
    const res = await fetch(`${proc.url}${url}`, {
      method, headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: await res.json() as Record<string, unknown> };
  }

  beforeAll(async () => {
    buildDashboard();
    [proc, browser] = await Promise.all([startProcess({ DATA_DIR: dataDir }), launchChromium()]);
    token = readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await proc?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists changes and refusals, filters them, and exports the filtered entries as CSV', async () => {
    const created = await as(token, 'POST', '/admin/accounts', { business_name: 'Harbour Cafe', email: 'owner@harbour.test', credits: 20 });
    const apiKey = created.body.api_key as string;
    const link = new URL(created.body.owner_invite_url as string);
    await page.goto(`${proc.url}${link.pathname}${link.hash}`);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

    // A day's changes through the API key, and a narrow key's refused attempt.
    const reader = await as(apiKey, 'POST', '/keys', { name: 'reporting', scopes: ['read'] });
    expect(reader.status).toBe(201);
    expect((await as(apiKey, 'POST', '/optouts', { number: '+61412345678' })).status).toBe(201);
    expect((await as(apiKey, 'PUT', '/settings', { time_zone: 'Australia/Perth' })).status).toBe(200);
    expect((await as(reader.body.key as string, 'POST', '/keys', { name: 'escalate' })).status).toBe(403);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const table = page.getByRole('region', { name: 'Audit log entries, newest first' });
    await table.getByText('settings.updated').waitFor();
    for (const action of ['key.created', 'optout.added', 'access.refused', 'session.signed_in', 'account.created']) {
      await expect.poll(() => table.getByText(action, { exact: true }).count(), { message: action }).toBeGreaterThan(0);
    }
    await table.getByText('time_zone: Australia/Sydney → Australia/Perth').waitFor();
    await table.getByText('Refused (insufficient_scope)').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'audit-desktop');

    await page.getByLabel('Outcome').selectOption('refused');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('audit-log.csv');
    const rows = parseCsv(readFileSync((await download.path())!, 'utf8'));
    expect(rows[0]).toEqual(['time', 'actor_type', 'actor_id', 'actor', 'source_address', 'action', 'target_type', 'target_id', 'outcome', 'reason', 'before', 'after']);
    expect(rows.slice(1).map((r) => [r[1], r[5], r[8], r[9]])).toEqual([['key', 'access.refused', 'refused', 'insufficient_scope']]);
    expect(rows[1]![2]).toBe(reader.body.id);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Outcome').selectOption('');
    await page.getByRole('button', { name: 'Apply' }).click();
    await table.getByText('settings.updated').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'audit-phone');
  });
});
