// The dashboard's edges in Debian's Chromium against a real `tasman start`: a failed call explained with a way out
// (the server's fault answered by "Try again", an ended session by "Sign in again"), labels in words and the link
// to the API reference; axe (serious or critical) at desktop and phone sizes.
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { useTasmanInChromium } from '../support/browser-app.ts';
import { haveChromium, screenshot, seriousViolations } from '../support/browser.ts';

const PASSWORD = 'harbour-lights-at-seven';

// A code for the step after now's: accepted (one step ahead is allowed), and never one an earlier call spent.
const nextCode = (secret: string) => generate({ secret, epoch: (Math.floor(Date.now() / 30_000) + 1) * 30 });

describe.skipIf(!haveChromium)('the dashboard\'s edges in a browser', () => {
  const s = useTasmanInChromium('tasman-edges-');
  let created: { owner_invite_url: string; api_key: string };

  const heading = (name: string) => s.page.getByRole('heading', { level: 1, name }).waitFor();
  const nav = () => s.page.getByRole('navigation', { name: 'Main' });
  async function axeAtBothSizes(name: string, page: Page = s.page) {
    for (const [width, height, label] of [[1280, 900, 'desktop'], [390, 844, 'phone']] as const) {
      await page.setViewportSize({ width, height });
      expect(await seriousViolations(page), `${name} at ${width}px`).toEqual([]);
      await screenshot(page, `${name}-${label}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /** A member invited with the API key who turns on a second factor through the API, as their browser would. */
  async function memberWithSecondFactor(email: string) {
    const json = { 'content-type': 'application/json' };
    const invited = await (await fetch(`${s.proc.url}/team`, {
      method: 'POST', headers: { authorization: `Bearer ${created.api_key}`, ...json }, body: JSON.stringify({ email, can_send: true }),
    })).json() as { invite_link: string };
    const accepted = await fetch(`${s.proc.url}/invites/accept`, {
      method: 'POST', headers: json, body: JSON.stringify({ token: new URL(invited.invite_link).hash.slice(1), password: PASSWORD }),
    });
    const cookie = accepted.headers.getSetCookie().find((c) => c.startsWith('tasman_session='))!.split(';')[0]!;
    const asMember = { ...json, cookie, 'x-csrf-token': ((await accepted.json()) as { csrf_token: string }).csrf_token };
    const { secret } = await (await fetch(`${s.proc.url}/two-factor/enrol`, { method: 'POST', headers: asMember, body: '{}' })).json() as { secret: string };
    const confirmed = await fetch(`${s.proc.url}/two-factor/confirm`, { method: 'POST', headers: asMember, body: JSON.stringify({ code: await nextCode(secret) }) });
    expect(confirmed.status).toBe(200);
    return {
      signIn: async () => (await fetch(`${s.proc.url}/session`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: PASSWORD }) })).status,
    };
  }

  beforeAll(async () => {
    created = await (await fetch(`${s.proc.url}/admin/accounts`, {
      method: 'POST', headers: { authorization: `Bearer ${s.adminToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'Harbour Dental', email: 'owner@edges.test', credits: 50, hierarchy_enabled: true }),
    })).json() as typeof created;
    // A message out: the Messages page lists it, and a reply to the shared number belongs to the account that last
    // wrote to its sender.
    const sent = await fetch(`${s.proc.url}/send`, {
      method: 'POST', headers: { authorization: `Bearer ${created.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: '+61412345678', message: 'Your table for four is booked for 7pm.' }),
    });
    expect(sent.status).toBe(200);
    const invite = new URL(created.owner_invite_url);
    await s.page.goto(`${s.proc.url}${invite.pathname}${invite.hash}`);
    await s.page.getByLabel('Password').fill(PASSWORD);
    await s.page.getByRole('button', { name: 'Set password' }).click();
    await heading('Overview');
  });

  it('a failed call is explained with a way out: the server\'s fault offers "Try again", which loads the figure', async () => {
    await s.page.route('**/balance', (route) => route.fulfill({
      status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Internal server error', code: 'internal_error' }),
    }));
    await s.page.goto(`${s.proc.url}/app/`);
    const alert = s.page.getByRole('alert').filter({ hasText: 'Something went wrong on the server (500)' });
    await alert.waitFor();
    expect(await alert.textContent()).not.toContain('Internal server error');
    const balance = s.page.getByText('Balance (credits)').locator('..');
    await expect.poll(() => balance.textContent()).toBe('Balance (credits)Unavailable');
    await axeAtBothSizes('overview-failed-call');
    await s.page.unroute('**/balance');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => balance.textContent()).toMatch(/^Balance \(credits\)\d+$/);
    await expect.poll(() => alert.count()).toBe(0);
  });

  it('an ended session is explained with "Sign in again", which leads back to the page after signing in', async () => {
    await s.page.goto(`${s.proc.url}/app/team`);
    await heading('Team');
    await s.page.route('**/team', (route) => route.fulfill({
      status: 401, contentType: 'application/json', body: JSON.stringify({ error: 'Your session has ended: sign in again', code: 'unauthorized' }),
    }));
    await s.page.getByRole('button', { name: 'Invite' }).click();
    const alert = s.page.getByRole('alert').filter({ hasText: 'Your session has ended' });
    await alert.waitFor();
    await s.page.unroute('**/team');
    await alert.getByRole('link', { name: 'Sign in again' }).click();
    await s.page.waitForURL(/\/app\/login$/);
    await s.page.getByLabel('Email').fill('owner@edges.test');
    await s.page.getByLabel('Password').fill(PASSWORD);
    await s.page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Team');
  });

  it('labels are words, not field names, and the API reference is a link away', async () => {
    await s.page.goto(`${s.proc.url}/app/settings`);
    await heading('Settings');
    await s.page.getByText('Owner: everything, and hand the account over').waitFor();
    const reference = nav().getByRole('link', { name: 'API reference' });
    expect(await reference.getAttribute('href')).toBe('/docs/');
    await nav().getByRole('link', { name: 'API keys' }).click();
    await heading('API keys');
    expect(await s.page.getByRole('main').getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/docs/');
    const docs = await fetch(`${s.proc.url}/docs/`);
    expect(docs.status).toBe(200);

    const sub = await (await fetch(`${s.proc.url}/accounts`, {
      method: 'POST', headers: { authorization: `Bearer ${created.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'Harbour Dental North' }),
    })).json() as { id: string };
    await s.page.goto(`${s.proc.url}/app/sub-accounts/${sub.id}`);
    await heading('Harbour Dental North');
    await s.page.getByLabel('Your team may sign in to this sub-account\'s dashboard').waitFor();
    for (const fieldName of ['team_access_from_parent', 'can_billing', 'can_send', 'credits_consumed']) {
      expect(await s.page.getByRole('main').textContent(), fieldName).not.toContain(fieldName);
    }
    await s.page.goto(`${s.proc.url}/app/reports`);
    await heading('Reports');
    await s.page.getByText('Credits used').waitFor();
    expect(await s.page.getByRole('main').textContent()).not.toContain('credits consumed');
  });

  it('a reply shows without a reload: a badge on Inbox, the Overview\'s recent replies; opening it marks it read', async () => {
    const inbound = (text: string) => fetch(`${s.proc.url}/admin/simulator/inbound`, {
      method: 'POST', headers: { authorization: `Bearer ${s.adminToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: '+61412345678', to: '+61480000000', text }),
    });
    await s.page.goto(`${s.proc.url}/app/`);
    await heading('Overview');
    const badge = nav().getByTestId('unread-badge');
    expect(await badge.count()).toBe(0);
    expect((await inbound('Can we bring a dog?')).status).toBeLessThan(300);
    await badge.waitFor({ timeout: 20_000 });
    expect(await badge.textContent()).toBe('1');
    await s.page.getByRole('main').getByText('Can we bring a dog?').waitFor();
    const inboxLink = nav().getByRole('link', { name: 'Inbox', exact: true });
    expect(await inboxLink.getAttribute('aria-describedby')).toBe('unread-replies');
    expect(await s.page.locator('#unread-replies').textContent()).toBe('1 unread reply');
    await axeAtBothSizes('overview-unread');

    await inboxLink.click();
    await heading('Inbox');
    await s.page.getByRole('main').getByText('Can we bring a dog?').first().waitFor();
    await expect.poll(() => badge.count()).toBe(0);
    // A second reply while the conversation is open: it appears, and is marked read as it is shown.
    await inbound('And a cat?');
    await s.page.getByRole('main').getByText('And a cat?').first().waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await (await fetch(`${s.proc.url}/inbox?unread=true`, { headers: { authorization: `Bearer ${created.api_key}` } })).json() as { unread_total: number }).unread_total).toBe(0);
    await axeAtBothSizes('inbox-read');
  });

  it('Messages on a phone: cards with who, status and text, and nothing scrolls sideways; the table on a desktop', async () => {
    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.page.goto(`${s.proc.url}/app/messages`);
    await heading('Messages');
    const cards = s.page.getByRole('list', { name: 'Messages, newest first' });
    const card = cards.getByRole('listitem').filter({ hasText: 'Your table for four is booked for 7pm.' });
    await card.waitFor();
    expect(await card.getByRole('link', { name: 'To +61412345678' }).isVisible()).toBe(true);
    expect(await s.page.getByRole('table', { name: 'Messages, newest first' }).isVisible()).toBe(false);
    expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await axeAtBothSizes('messages');
    expect(await cards.isVisible()).toBe(false);
    expect(await s.page.getByRole('table', { name: 'Messages, newest first' }).isVisible()).toBe(true);
  });

  it('a dark theme follows the system: dark surfaces, light text, and axe still finds nothing serious', async () => {
    const background = () => s.page.evaluate(() => {
      const probe = document.createElement('canvas').getContext('2d')!;
      // The computed colour may be oklch(): a canvas gives it back as sRGB bytes.
      probe.fillStyle = getComputedStyle(document.body).backgroundColor;
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
      return (r! + g! + b!) / 3;
    });
    await s.page.emulateMedia({ colorScheme: 'light' });
    await s.page.goto(`${s.proc.url}/app/`);
    await heading('Overview');
    expect(await background()).toBeGreaterThan(200);
    await s.page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(background).toBeLessThan(50);
    for (const [path, title] of [['', 'Overview'], ['messages', 'Messages'], ['inbox', 'Inbox'], ['team', 'Team'], ['settings', 'Settings'], ['security', 'Security'], ['developers/keys', 'API keys'], ['reports', 'Reports']] as const) {
      await s.page.goto(`${s.proc.url}/app/${path}`);
      await heading(title);
      await s.page.waitForLoadState('networkidle');
      await axeAtBothSizes(`dark-${path || 'overview'}`);
    }
    await s.page.emulateMedia({ colorScheme: 'light' });
  });

  it('two-factor set-up shows a QR code; the owner resets a member\'s second factor from Team, after confirming', async () => {
    await s.page.goto(`${s.proc.url}/app/security`);
    await heading('Security');
    await s.page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const qr = s.page.getByRole('img', { name: /^QR code for setting up Tasman/ });
    await qr.waitFor();
    const secret = (await s.page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    expect(await qr.getAttribute('aria-label')).toContain(secret.slice(0, 4));
    const box = (await qr.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(150);
    await axeAtBothSizes('security-qr');
    await s.page.getByLabel('Authentication code').fill(await nextCode(secret));
    await s.page.getByRole('button', { name: 'Turn on' }).click();
    await s.page.getByRole('list', { name: 'Recovery codes' }).waitFor();

    const member = await memberWithSecondFactor('reception@edges.test');
    await s.page.goto(`${s.proc.url}/app/team`);
    await heading('Team');
    const row = s.page.getByRole('table', { name: 'Team members' }).getByRole('row').filter({ hasText: 'reception@edges.test' });
    await row.getByRole('cell', { name: 'On', exact: true }).waitFor();
    await row.getByRole('button', { name: 'Reset two-factor authentication of reception@edges.test' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Reset two-factor authentication of reception@edges.test' });
    await dialog.getByText('lost their phone').waitFor();
    await axeAtBothSizes('team-reset-two-factor');
    expect(await member.signIn()).toBe(202);
    await dialog.getByRole('button', { name: 'Reset two-factor authentication' }).click();
    await row.getByRole('cell', { name: 'Off', exact: true }).waitFor();
    expect(await dialog.count()).toBe(0);
    expect(await member.signIn()).toBe(200);
  });

  it('the owner requires two-factor authentication: a member without it signs in to its set-up alone, then to the dashboard', async () => {
    await s.page.goto(`${s.proc.url}/app/security`);
    await heading('Security');
    const rule = s.page.getByRole('button', { name: 'Require two-factor authentication for everyone' });
    await rule.click();
    await s.page.getByText('Everyone on the team must use two-factor authentication').waitFor();
    await axeAtBothSizes('security-team-rule');

    const member = await (await s.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await member.goto(`${s.proc.url}/app/login`);
    await member.getByLabel('Email').fill('reception@edges.test');
    await member.getByLabel('Password').fill(PASSWORD);
    await member.getByRole('button', { name: 'Sign in' }).click();
    await member.getByText('Harbour Dental requires two-factor authentication').waitFor();
    expect(await member.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await member.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await member.getByRole('img', { name: /^QR code/ }).waitFor();
    await axeAtBothSizes('enrol-first', member);
    const secret = (await member.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    await member.getByLabel('Authentication code').fill(await nextCode(secret));
    await member.getByRole('button', { name: 'Turn on' }).click();
    await member.getByRole('list', { name: 'Recovery codes' }).waitFor();
    await member.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await member.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await member.getByRole('navigation', { name: 'Main' }).waitFor();
    await member.context().close();
  });
});
