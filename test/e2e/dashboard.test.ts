// The dashboard in Debian's Chromium against a real `tasman start`: the flow from invite to operator
// top-up, axe on every page, screenshots at desktop and phone width, and the first page's JavaScript weight.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startProcess, type TasmanProcess } from '../support/process.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { isoToZoned } from '../../web/src/lib/zoned.ts';
import { ARTEFACTS, buildDashboard, haveChromium, launchChromium, screenshot, seriousViolations } from '../support/browser.ts';

if (!haveChromium) console.warn('dashboard.test.ts skipped: /usr/bin/chromium is missing (apt-get install -y chromium)');

const PASSWORD = 'harbour-lights-at-seven';
const CUSTOMER = '+61412345678';
const SHARED_AU = '+61480000000';

describe.skipIf(!haveChromium)('the dashboard in a browser', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-dash-'));
  let proc: TasmanProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Receiver;
  let token: string;
  let accountId: string;
  let apiKey: string;
  // Pages photographed at the end whose address is only known once the flow made them.
  const made: { messageId?: string; campaignId?: string; subAccountId?: string } = {};

  const asKey = async <T,>(url: string, key = apiKey): Promise<T> =>
    (await fetch(`${proc.url}${url}`, { headers: { authorization: `Bearer ${key}` } })).json() as Promise<T>;

  async function operator(method: string, url: string, body?: unknown) {
    const res = await fetch(`${proc.url}${url}`, {
      method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return res.json() as Promise<Record<string, unknown>>;
  }
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  const heading = async (name: string) => {
    try {
      await page.getByRole('heading', { level: 1, name }).waitFor();
    } catch (err) {
      await screenshot(page, `failed-waiting-for-${name.replace(/\W+/g, '-')}`);
      throw err;
    }
  };

  beforeAll(async () => {
    buildDashboard();
    [proc, browser, receiver] = await Promise.all([
      startProcess({ DATA_DIR: dataDir, SIM_DLR_DELAY_MS: '50' }), launchChromium(), startReceiver(),
    ]);
    token = readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
    // A browser far from the account: every date must still read in the account's zone (Settings), not New York's.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'America/New_York' });
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await proc?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('invite → set password → sign in; the first page weighs under 500 kB of gzipped JavaScript', async () => {
    const created = await operator('POST', '/admin/accounts', { business_name: 'Harbour Cafe', email: 'owner@harbour.test', credits: 50, hierarchy_enabled: true });
    accountId = created.account_id as string;
    apiKey = created.api_key as string;
    // The link names PUBLIC_URL (default http://HOST:PORT); the process listens on a port the OS chose.
    const link = new URL(created.owner_invite_url as string);
    const scripts: string[] = [];
    page.on('response', (r) => { if (r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname); });
    await page.goto(`${proc.url}${link.pathname}${link.hash}`);
    await page.getByText('owner@harbour.test').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'invite-desktop');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('12 characters');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await heading('Overview');
    await page.getByText('Balance (credits)').waitFor();
    // Weight of the first page: every script it loaded, gzipped as served (the build writes .gz beside each).
    const dist = fileURLToPath(new URL('../../web/dist/', import.meta.url));
    const gz = [...new Set(scripts)].map((p) => readFileSync(path.join(dist, p.replace(/^\/app\//, '')) + '.gz').length);
    const total = gz.reduce((a, b) => a + b, 0);
    const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
    mkdirSync(ARTEFACTS, { recursive: true });
    writeFileSync(path.join(ARTEFACTS, 'first-page.json'), JSON.stringify({ scripts: [...new Set(scripts)], gzip_bytes: total, first_contentful_paint_ms: paint }, null, 2));
    expect(total).toBeGreaterThan(10_000);
    expect(total).toBeLessThan(500_000);
  });

  it('signs out, and signs in again at /login with Email and Password', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/app\/login$/);
    await page.goto(`${proc.url}/login`);
    await page.getByLabel('Email').fill('owner@harbour.test');
    await page.getByLabel('Password').fill('wrong password entirely');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong email or password');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Overview');
    // By keyboard: the first Tab on a fresh load reaches "Skip to content", and a focused navigation link opens its
    // page on Enter.
    await page.reload();
    await heading('Overview');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).focus();
    await page.keyboard.press('Enter');
    await heading('Reports');
    await page.goBack();
    await heading('Overview');
    await page.getByRole('list', { name: 'Services' }).getByText('Sending').waitFor();
    await page.getByText('All systems operational').waitFor();
  });

  it('sends one message with a live preview and sees it delivered in Messages', async () => {
    await nav('Send');
    await heading('Send');
    await page.getByLabel('To', { exact: true }).fill('0412 345 678');
    await page.getByLabel('Message').fill('Your table is ready');
    // The number it will use, read in the account's country, and the cost in words.
    await page.getByText('To +61412345678 · 1 credit, sent as 1 SMS').waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Sent.').waitFor();
    await nav('Messages');
    await heading('Messages');
    const row = page.getByRole('row').filter({ hasText: 'Your table is ready' });
    await row.getByText('delivered').waitFor({ timeout: 30_000 });
    // In the account's zone (Sydney), labelled, though the browser is in New York.
    expect(await row.locator('time').textContent()).toMatch(/ AE[DS]T$/);
    await page.getByText('Times in Australia/Sydney').waitFor();
    await row.getByRole('link').click();
    await page.getByText('Receipt: delivered').waitFor();
    made.messageId = new URL(page.url()).pathname.split('/').pop()!;
  });

  it('uploads a CSV batch whose columns become merge fields', async () => {
    await nav('Send');
    await page.getByLabel('Or upload a CSV').setInputFiles({
      name: 'guests.csv', mimeType: 'text/csv', buffer: Buffer.from('phone,name\n0412 000 101,Ana\n0412 000 102,"Ben, Jr"\n12345,Nobody\n'),
    });
    await page.getByText('guests.csv: 3 recipients').waitFor();
    await page.getByLabel('Message').fill('Hi {{name}}, see you at 7');
    await page.getByText('Hi Ben, Jr, see you at 7').waitFor();
    await page.getByText('12345: not an Australian or New Zealand mobile number').waitFor();
    await page.getByLabel('Campaign name (optional)').fill('Friday dinner');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Queued 2 messages').waitFor();
    await page.getByRole('link', { name: 'See the campaign' }).click();
    await heading('Friday dinner');
    await page.getByText('2 of 2 finished').waitFor({ timeout: 30_000 });
    made.campaignId = new URL(page.url()).pathname.split('/').pop()!;
    // Each recipient got its own row's fields, the quoted comma included.
    const sent = await asKey<{ messages: Array<{ recipient: string; body: string }> }>(`/messages?campaign_id=${made.campaignId}`);
    expect(Object.fromEntries(sent.messages.map((m) => [m.recipient, m.body]))).toEqual({
      '+61412000101': 'Hi Ana, see you at 7', '+61412000102': 'Hi Ben, Jr, see you at 7',
    });
  });

  it('schedules one in the account\'s zone and cancels it, getting the credit back', async () => {
    const before = (await (await fetch(`${proc.url}/balance`, { headers: { authorization: `Bearer ${apiKey}` } })).json() as { credits: number }).credits;
    await nav('Send');
    await heading('Send');
    await page.getByLabel('To', { exact: true }).fill('0412 000 777');
    await page.getByLabel('Message').fill('Reminder: your booking is tomorrow');
    await page.getByLabel('Schedule for later').check();
    // Two days ahead at 10:30 Sydney time, whatever zone this machine is in.
    const day = isoToZoned(Date.now() + 2 * 86_400_000, 'Australia/Sydney').slice(0, 10);
    await page.getByLabel('Send at (Australia/Sydney time)').fill(`${day}T10:30`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText(/Scheduled for .*10:30/).waitFor();
    await nav('Messages');
    await heading('Messages');
    const scheduled = page.getByRole('region', { name: 'Scheduled messages' });
    await scheduled.getByText('Reminder: your booking is tomorrow').waitFor();
    const listed = await (await fetch(`${proc.url}/messages?status=scheduled`, { headers: { authorization: `Bearer ${apiKey}` } })).json() as { messages: Array<{ id: string; scheduled_at: string }> };
    expect(listed.messages).toHaveLength(1);
    // 10:30 in Sydney is 23:30 or 00:30 UTC, by daylight saving.
    expect(listed.messages[0]!.scheduled_at).toMatch(/T(23|00):30:00/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'messages-scheduled-desktop');
    await scheduled.getByRole('button', { name: /^Cancel the message to \+61412000777/ }).click();
    await page.getByText('Cancelled the message to +61412000777; 1 credit(s) returned.').waitFor();
    const read = await (await fetch(`${proc.url}/message/${listed.messages[0]!.id}`, { headers: { authorization: `Bearer ${apiKey}` } })).json() as { message: { status: string } };
    expect(read.message.status).toBe('cancelled');
    const after = (await (await fetch(`${proc.url}/balance`, { headers: { authorization: `Bearer ${apiKey}` } })).json() as { credits: number }).credits;
    expect(after).toBe(before);
  });

  it('replies from the Inbox to an injected inbound message', async () => {
    await operator('POST', '/admin/simulator/inbound', { from: CUSTOMER, to: SHARED_AU, text: 'Can we bring a dog?' });
    await nav('Inbox');
    await page.getByText('Can we bring a dog?').first().waitFor();
    await page.getByLabel('Reply').fill('Of course, on the terrace');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Reply sent.').waitFor();
    await page.getByText('Of course, on the terrace').waitFor();
    // The reply really went: a message to the customer from the number they wrote to.
    const replies = await asKey<{ messages: Array<{ recipient: string; sender: string; body: string }> }>(`/messages?q=${encodeURIComponent('on the terrace')}`);
    expect(replies.messages.map((m) => [m.recipient, m.body])).toEqual([[CUSTOMER, 'Of course, on the terrace']]);
  });

  it('adds a number to the opt-outs, removes it, and exports the audit as CSV from the server', async () => {
    await nav('Opt-outs');
    await heading('Opt-outs');
    await page.getByLabel('Number to opt out').fill('0412 000 888');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Added +61412000888.').waitFor();
    await page.getByRole('row').filter({ hasText: '+61412000888' }).getByText('added by you').waitFor();
    const refused = await fetch(`${proc.url}/send`, {
      method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: '0412000888', message: 'not to you' }),
    });
    expect(((await refused.json()) as { code: string }).code).toBe('recipient_opted_out');
    // Removing asks first (window.confirm): accept it.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Remove +61412000888 from the list' }).click();
    await page.getByText('Removed +61412000888').waitFor();
    await page.getByText('Nobody has opted out.').waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('number,action,source,raw_text,received_at,inbound_message_id,message_id');
    expect(csv).toMatch(/\+61412000888,optout,api,[^\r]*\r\n\+61412000888,optin,api,/);
  });

  it('creates an API key, shown once, that works with fetch', async () => {
    await nav('API keys');
    await heading('API keys');
    await page.getByLabel('Key name').fill('Website');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('secret').textContent())!.trim();
    expect(key).toMatch(/^tsm_/);
    const res = await fetch(`${proc.url}/balance`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    await page.reload();
    await heading('API keys');
    expect(await page.getByTestId('secret').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
  });

  it('creates a read-only key from the scope switches: it reads, and sending is refused', async () => {
    await page.getByLabel('Key name').fill('Reporting');
    await page.getByLabel(/^Send: /).uncheck();
    await page.getByLabel(/^Billing: /).uncheck();
    await page.getByLabel(/^Manage: /).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('New key "Reporting" (read)').waitFor();
    const key = (await page.getByTestId('secret').textContent())!.trim();
    expect((await fetch(`${proc.url}/balance`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const send = await fetch(`${proc.url}/send`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: '0412 000 999', message: 'not allowed' }),
    });
    expect(send.status).toBe(403);
    expect(((await send.json()) as { code: string }).code).toBe('insufficient_scope');
    await page.getByRole('row').filter({ hasText: 'Reporting' }).getByRole('cell', { name: 'read', exact: true }).waitFor();
    // A long list pages: 20 keys more make 23, shown 20 and then 3.
    for (let i = 0; i < 20; i++) {
      const created = await fetch(`${proc.url}/keys`, {
        method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Till ${i}` }),
      });
      expect(created.status).toBe(201);
    }
    await page.reload();
    await heading('API keys');
    const keyRows = page.getByRole('region', { name: 'API keys' }).getByRole('row');
    await expect.poll(() => keyRows.count()).toBe(21);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2').waitFor();
    expect(await keyRows.count()).toBe(4);
  });

  it('issues an SMPP credential beside the keys: its password shown once, then revoked', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Platform');
    await page.getByRole('button', { name: 'Create SMPP credential' }).click();
    await page.getByText(/^Password for system_id tsm[0-9a-z]{10}: shown once/).waitFor();
    expect((await page.getByTestId('secret').textContent())!.trim()).toMatch(/^[0-9A-Za-z]{8}$/);
    const row = page.getByRole('region', { name: 'SMPP credentials' }).getByRole('row').filter({ hasText: 'Platform' });
    await row.waitFor();
    page.once('dialog', (dialog) => { void dialog.accept(); });
    await row.getByRole('button', { name: 'Revoke Platform' }).click();
    await row.getByText(/^revoked/).waitFor();
  });

  it('sets a delivery webhook and sees a delivery in its log', async () => {
    await nav('Webhooks');
    await page.getByLabel('Delivery receipts URL').fill(`${receiver.url}/dlr`);
    await page.getByRole('button', { name: 'Save' }).first().click();
    await page.getByText('Saved.').waitFor();
    await fetch(`${proc.url}/send`, {
      method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: '0412 000 555', message: 'hooked' }),
    });
    await receiver.waitFor(1, 30_000);
    await page.getByRole('list', { name: 'Webhook deliveries' }).getByText('message.dlr').first().waitFor({ timeout: 15_000 });
    await page.getByText(/: 200 in \d+ ms/).first().waitFor();
  });

  it('(parent) creates a sub-account and allocates credits to it', async () => {
    await nav('Sub-accounts');
    await page.getByLabel('Business name').fill('Harbour Catering');
    await page.getByRole('button', { name: 'Create sub-account' }).click();
    await page.getByRole('link', { name: 'Harbour Catering' }).click();
    await heading('Harbour Catering');
    made.subAccountId = new URL(page.url()).pathname.split('/').pop()!;
    const parentBefore = (await asKey<{ credits: number }>('/balance')).credits;
    await page.getByLabel('Amount').fill('5');
    await page.getByRole('button', { name: 'Allocate' }).click();
    await page.getByText('Sub-account balance 5').waitFor();
    expect((await asKey<{ credits: number }>('/balance')).credits).toBe(parentBefore - 5);
    // Its chart (empty: it has sent nothing) and a number moved to it from the parent's own.
    await page.getByText('No messages in the last 30 days.').waitFor();
    await operator('POST', '/admin/numbers', { number: '+61480555001', country: 'AU', account_id: accountId });
    await page.reload();
    await heading('Harbour Catering');
    await page.getByLabel('Give it one of your numbers').selectOption('+61480555001');
    await page.getByRole('button', { name: 'Move number' }).click();
    await page.getByText('Moved +61480555001 to this sub-account.').waitFor();
    await page.getByRole('list', { name: 'This sub-account\'s numbers' }).getByText(/\+61480555001/).waitFor();
  });

  it('(operator) signs in at /operator and tops up an account', async () => {
    const op = await context.newPage();
    await op.goto(`${proc.url}/operator`);
    // Unreachable without the operator token: this browser holds the owner's session, which opens no operator read.
    await op.getByRole('button', { name: 'Use the operator token instead' }).click();
    await op.getByLabel('Operator token').waitFor();
    expect(await op.getByRole('heading', { name: 'Operator console' }).count()).toBe(0);
    for (const url of ['/admin/health', '/admin/carriers', '/admin/accounts', '/admin/numbers', '/admin/sender-ids', `/admin/accounts/${accountId}`]) {
      expect((await op.request.get(`${proc.url}${url}`)).status(), url).toBe(401);
    }
    expect((await op.request.post(`${proc.url}/admin/accounts/${accountId}/credits`, { data: { amount: 1 } })).status()).toBe(401);
    await op.getByLabel('Operator token').fill('not the token');
    await op.getByRole('button', { name: 'Sign in' }).click();
    await op.getByRole('alert').waitFor();
    expect(await seriousViolations(op)).toEqual([]);
    await screenshot(op, 'operator-sign-in-desktop');
    await op.getByLabel('Operator token').fill(token);
    await op.getByRole('button', { name: 'Sign in' }).click();
    await op.getByRole('heading', { name: 'Operator console' }).waitFor();
    // The pipeline panel: /status, the queues (GET /admin/health) and the carriers with each bind (GET /admin/carriers).
    const carrier = op.getByRole('list', { name: 'Carriers' }).getByRole('listitem').filter({ hasText: 'default' });
    await carrier.getByText('taking messages').waitFor();
    const bind = carrier.getByRole('table', { name: 'Binds of default' }).getByRole('row', { name: /^#0 / });
    await bind.getByText('bound', { exact: true }).waitFor();
    const carriers = await operator('GET', '/admin/carriers') as { carriers: Array<{ id: string; binds: Array<{ submitted: number }> }> };
    // Every message so far went through this bind; the panel shows the same count as the API.
    const submitted = carriers.carriers.find((c) => c.id === 'default')!.binds[0]!.submitted;
    expect(submitted).toBeGreaterThan(3);
    await expect.poll(() => bind.getByRole('cell').nth(4).textContent()).toBe(String(submitted));
    await op.getByText('Messages waiting for the carrier').waitFor();
    await op.getByText('All systems operational').waitFor();
    await op.getByLabel('Search accounts').fill('Harbour Cafe');
    await op.getByRole('button', { name: 'Search' }).click();
    // A refused top-up says why in its own row, beside the field.
    await op.getByLabel('Credits to add to Harbour Cafe').fill('0');
    await op.getByRole('button', { name: 'Top up Harbour Cafe' }).click();
    await op.getByRole('row').filter({ hasText: 'Harbour Cafe' }).getByRole('alert').waitFor();
    await op.getByLabel('Credits to add to Harbour Cafe').fill('100');
    await op.getByRole('button', { name: 'Top up Harbour Cafe' }).click();
    await op.getByText(/New balance: \d+ credits/).waitFor();
    const read = await operator('GET', `/admin/accounts/${accountId}`);
    expect(read.credits).toBeGreaterThanOrEqual(100);
    await op.getByRole('row').filter({ hasText: 'Harbour Cafe' }).getByText(String(read.credits), { exact: true }).waitFor();
    expect(await seriousViolations(op)).toEqual([]);
    await screenshot(op, 'operator-desktop');
    await op.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(op)).toEqual([]);
    await screenshot(op, 'operator-phone');
    await op.close();
  });

  it('(operator) creates an account, enables its sub-accounts, suspends and reactivates it, registers a Sender ID, adds a pool number', async () => {
    const op = await context.newPage();
    await op.goto(`${proc.url}/operator`);
    // Still signed in from the test before (the console's own cookie).
    await op.getByRole('heading', { name: 'Operator console' }).waitFor();
    await op.getByLabel('Business name').fill('Bayside Books');
    await op.getByLabel('Owner email').fill('owner@bayside.test');
    await op.getByRole('button', { name: 'Create account' }).click();
    await op.getByText('Owner invite link: shown once, copy it now.').waitFor();
    const found = await operator('GET', '/admin/accounts?q=Bayside') as { accounts: Array<{ account_id: string }> };
    expect(found.accounts).toHaveLength(1);
    const bayside = found.accounts[0]!.account_id;
    const read = () => operator('GET', `/admin/accounts/${bayside}`);
    await op.getByLabel('Search accounts').fill('Bayside');
    await op.getByRole('button', { name: 'Search' }).click();
    const row = op.getByRole('row').filter({ hasText: 'Bayside Books' });
    // The box shows the account's state, so it ticks once the change is saved and read back (check() wants it at once).
    await row.getByLabel('Sub-accounts').click();
    await expect.poll(async () => (await read()).hierarchy_enabled).toBe(true);
    await row.locator('input[type="checkbox"]:checked').waitFor();
    await op.getByRole('button', { name: 'Suspend Bayside Books' }).click();
    await row.getByText('suspended', { exact: true }).waitFor();
    expect((await read()).account_status).toBe('suspended');
    await op.getByRole('button', { name: 'Reactivate Bayside Books' }).click();
    await row.getByText('active', { exact: true }).waitFor();
    expect((await read()).account_status).toBe('active');

    await op.getByLabel('Sender ID', { exact: true }).fill('BaysideBks');
    await op.getByLabel('ABN').fill('51824753556');
    await op.getByLabel('Account id (optional)').fill(bayside);
    await op.getByRole('button', { name: 'Register' }).click();
    await op.getByText('Registered BaysideBks.').waitFor();
    await op.getByRole('region', { name: 'Registered Sender IDs' }).getByRole('row').filter({ hasText: 'BaysideBks' }).getByText(bayside).waitFor();

    await op.getByLabel('Number', { exact: true }).fill('+61480555099');
    await op.getByLabel('Price a month').fill('12.5');
    await op.getByRole('button', { name: 'Add number' }).click();
    await op.getByText('Added +61480555099.').waitFor();
    await op.getByLabel('Show', { exact: true }).selectOption('pool');
    await op.getByRole('region', { name: 'Dedicated numbers' }).getByRole('row').filter({ hasText: '+61480555099' }).getByText('$12.50').waitFor();
    expect(await seriousViolations(op)).toEqual([]);
    await op.close();
  });

  it('Settings: time zone, quiet hours and the low-balance email saved, and the Send page\'s picker follows the zone', async () => {
    await nav('Settings');
    await heading('Settings');
    await page.getByLabel('Time zone').selectOption('Australia/Perth');
    expect(await page.getByLabel('Local numbers are in').inputValue()).toBe('AU');
    await page.getByLabel('Hold messages that would arrive at night').check();
    await page.getByLabel('Quiet from').fill('21:30');
    await page.getByLabel('Quiet until').fill('07:45');
    await page.getByLabel('Email the owner when the balance falls below (credits)').fill('300');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const saved = await (await fetch(`${proc.url}/settings`, { headers: { authorization: `Bearer ${apiKey}` } })).json() as { settings: unknown };
    expect(saved.settings).toEqual({ time_zone: 'Australia/Perth', quiet_hours: { start: '21:30', end: '07:45' }, link_tracking: false, country: 'AU', low_balance_threshold: 300 });
    await page.reload();
    await heading('Settings');
    expect(await page.getByLabel('Quiet from').inputValue()).toBe('21:30');
    await nav('Send');
    await heading('Send');
    await page.getByText(/Quiet hours 21:30–07:45/).waitFor();
    await page.getByLabel('Schedule for later').check();
    const day = isoToZoned(Date.now() + 2 * 86_400_000, 'Australia/Perth').slice(0, 10);
    await page.getByLabel('Send at (Australia/Perth time)').fill(`${day}T22:15`);
    await page.getByText('22:15 is inside quiet hours: Australian recipients get it at 07:45 instead.').waitFor();
    await page.getByLabel('Send at (Australia/Perth time)').fill(`${day}T12:15`);
    await page.getByText(/is inside quiet hours/).waitFor({ state: 'detached' });
    // Every date now reads in Perth.
    await page.getByText('Times in Australia/Perth').waitFor();
    await nav('Messages');
    await heading('Messages');
    expect(await page.getByRole('row').filter({ hasText: 'Your table is ready' }).locator('time').textContent()).toMatch(/ AWST$/);
    // The report figures stay Sydney days (the API's), and the Overview says so once the clock is another.
    await nav('Overview');
    await heading('Overview');
    await page.getByText('Days in these figures run midnight to midnight in Sydney (Australia/Sydney), as in every report.').waitFor();
  });

  // 16 pages twice, then the signed-out ones, each loaded, settled, checked and photographed: minutes on a loaded
  // two-core machine.
  it('every page: no serious or critical axe violations, at desktop and phone width', { timeout: 420_000 }, async () => {
    const invite = await fetch(`${proc.url}/team`, {
      method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'waiter@harbour.test', can_send: true, can_billing: false }),
    }).then((r) => r.json()) as { invite_link: string };
    const link = new URL(invite.invite_link);
    const pages: Array<[string, string, string]> = [
      ['message', `/app/messages/${made.messageId}`, 'Message'], ['campaign', `/app/campaigns/${made.campaignId}`, 'Friday dinner'],
      ['sub-account', `/app/sub-accounts/${made.subAccountId}`, 'Harbour Catering'],
      ['overview', '/app/', 'Overview'], ['send', '/app/send', 'Send'], ['messages', '/app/messages', 'Messages'],
      ['campaigns', '/app/campaigns', 'Campaigns'], ['inbox', '/app/inbox', 'Inbox'], ['optouts', '/app/optouts', 'Opt-outs'],
      ['numbers', '/app/numbers', 'Numbers & Sender IDs'], ['keys', '/app/developers/keys', 'API keys'],
      ['webhooks', '/app/developers/webhooks', 'Webhooks'], ['team', '/app/team', 'Team'],
      ['sub-accounts', '/app/sub-accounts', 'Sub-accounts'], ['reports', '/app/reports', 'Reports'], ['settings', '/app/settings', 'Settings'],
      ['audit', '/app/audit', 'Audit log'],
    ];
    const found: Record<string, string[]> = {};
    for (const [width, height, suffix] of [[1280, 900, 'desktop'], [390, 844, 'phone']] as const) {
      await page.setViewportSize({ width, height });
      for (const [name, url, title] of pages) {
        await page.goto(`${proc.url}${url}`);
        await heading(title);
        await page.waitForLoadState('networkidle');
        const v = await seriousViolations(page);
        if (v.length) found[`${name}-${suffix}`] = v;
        await screenshot(page, `${name}-${suffix}`);
      }
    }
    // Signed out: the sign-in page and an invite, at both widths.
    await context.clearCookies();
    for (const [width, height, suffix] of [[1280, 900, 'desktop'], [390, 844, 'phone']] as const) {
      await page.setViewportSize({ width, height });
      for (const [name, url, ready] of [['login', '/app/login', 'Email'], ['invite', `${link.pathname}${link.hash}`, 'Password']]) {
        await page.goto(`${proc.url}${url}`);
        await page.getByLabel(ready!, { exact: true }).waitFor();
        if (name === 'invite') await page.getByText('waiter@harbour.test').waitFor();
        const v = await seriousViolations(page);
        if (v.length) found[`${name}-${suffix}`] = v;
        await screenshot(page, `${name}-${suffix}`);
      }
    }
    expect(found).toEqual({});
    expect(made).toEqual({ messageId: expect.any(String), campaignId: expect.any(String), subAccountId: expect.any(String) });
  });
});
