// The Team page in Debian's Chromium against a real `tasman start`: the owner sees roles and what each person can
// do in words, changes a member's permissions, removes a member through a dialog that lists the keys that stop
// working with them, and hands the account to an admin; a member sees no action it could not take, with the reason.
// Axe (serious or critical) on the page; screenshots in test-results/screenshots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startProcess, type TasmanProcess } from '../support/process.ts';
import { buildDashboard, haveChromium, launchChromium, screenshot, seriousViolations } from '../support/browser.ts';

const PASSWORD = 'harbour-lights-at-seven';

describe.skipIf(!haveChromium)('the Team page in a browser', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-team-'));
  let proc: TasmanProcess;
  let browser: Browser;
  let apiKey = '';

  const api = async (method: string, url: string, body?: unknown) => (await fetch(`${proc.url}${url}`, {
    method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}),
  })).json() as Promise<Record<string, unknown>>;

  /** A fresh browser that accepts the invite link and lands signed in. */
  async function signedIn(link: string): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const url = new URL(link);
    await page.goto(`${proc.url}${url.pathname}${url.hash}`);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.goto(`${proc.url}/app/team`);
    await page.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
    return page;
  }

  beforeAll(async () => {
    buildDashboard();
    [proc, browser] = await Promise.all([startProcess({ DATA_DIR: dataDir }), launchChromium()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await proc?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows and changes roles in words, lists a removed member\'s keys, hands the account over; a member sees why not', async () => {
    const token = readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
    const created = await (await fetch(`${proc.url}/admin/accounts`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'Harbour Dental', email: 'owner@harbour.test' }),
    })).json() as { owner_invite_url: string; api_key: string };
    apiKey = created.api_key;
    const adminInvite = await api('POST', '/team', { email: 'office@harbour.test', name: 'Office manager', role: 'admin' });
    const memberInvite = await api('POST', '/team', { email: 'reception@harbour.test', name: 'Reception', can_send: true });
    const owner = await signedIn(created.owner_invite_url);

    const rows = owner.getByRole('table', { name: 'Team members' }).getByRole('row');
    await rows.filter({ hasText: 'office@harbour.test' }).getByText('Admin').waitFor();
    await rows.filter({ hasText: 'reception@harbour.test' }).getByText('See the account, send messages').waitFor();
    await rows.filter({ hasText: 'owner@harbour.test' }).getByText('You: nobody changes their own role').waitFor();
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'team-owner');

    // Change the member: may also handle billing.
    await owner.getByRole('button', { name: 'Change reception@harbour.test' }).click();
    await owner.getByRole('group', { name: 'Change what reception@harbour.test can do' }).getByLabel('May move credits and buy numbers').check();
    await owner.getByRole('button', { name: 'Save' }).click();
    await rows.filter({ hasText: 'reception@harbour.test' }).getByText('See the account, send messages, move credits and buy numbers').waitFor();

    // The admin's key is theirs: the removal dialog names it.
    const adminPage = await signedIn(adminInvite.invite_link as string);
    const adminKey = await adminPage.evaluate(async () => {
      const session = await (await fetch('/session')).json() as { csrf_token: string };
      const res = await fetch('/keys', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token }, body: JSON.stringify({ name: 'Booking system' }) });
      return (await res.json() as { prefix: string }).prefix;
    });
    const member = await signedIn(memberInvite.invite_link as string);
    await member.getByText('Only admins and the owner invite people').waitFor();
    expect(await member.getByRole('button', { name: /^(Change|Remove) / }).count()).toBe(0);
    await member.getByRole('table', { name: 'Team members' }).getByText('Only admins and the owner change the team').first().waitFor();
    await screenshot(member, 'team-member');

    await owner.getByRole('button', { name: 'Change office@harbour.test' }).waitFor();
    await owner.getByRole('button', { name: 'Remove reception@harbour.test' }).click();
    await owner.getByRole('dialog', { name: 'Remove reception@harbour.test' }).getByText('They have made no API keys that still work').waitFor();
    await owner.getByRole('button', { name: 'Cancel' }).click();
    await owner.reload();
    await owner.getByRole('button', { name: 'Remove office@harbour.test' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Remove office@harbour.test' });
    await dialog.getByText(`Booking system (${adminKey}…)`).waitFor();
    await screenshot(owner, 'team-remove-dialog');
    await owner.getByRole('button', { name: 'Cancel' }).click();

    // Hand the account to the admin.
    await owner.getByLabel('New owner').selectOption({ label: 'Office manager (office@harbour.test)' });
    owner.once('dialog', (d) => void d.accept());
    await owner.getByRole('button', { name: 'Hand the account over' }).click();
    await owner.getByText('You are an admin').waitFor();
    const team = await api('GET', '/team') as { users: Array<{ email: string; role: string }> };
    expect(team.users.map((u) => [u.email, u.role])).toEqual([
      ['owner@harbour.test', 'admin'], ['office@harbour.test', 'owner'], ['reception@harbour.test', 'member'],
    ]);
    await screenshot(owner, 'team-after-transfer');
  });
});
