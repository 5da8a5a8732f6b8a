// The one-tap opt-out link in a real browser (headless Chromium through playwright-core): the app listens on a
// real port, and the link is opened exactly as it appears in the sent message.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { freePort } from '../support/process.ts';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`optout-page.test.ts skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!haveChromium)('opt-out page in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    // The default OPTOUT_LINK_BASE is http://HOST:PORT/o, so the links in messages point at this listener.
    const port = await freePort();
    t = await createTestApp({ PORT: String(port), HOST: '127.0.0.1' });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function sendWithLink(apiKey: string, to: string) {
    const sent = await call(t.app, apiKey, 'POST', '/send', { to, message: 'Winter menu is out! Opt out: {{OptOutLink}}' });
    expect(sent.status).toBe(200);
    const got = await call(t.app, apiKey, 'GET', `/message/${String(sent.body.message_id)}`);
    const link = /https?:\/\/\S+$/.exec((got.body.message as { body: string }).body)?.[0];
    expect(link).toMatch(new RegExp(`^${t.config.optoutLinkBase}/[0-9A-Za-z]{7}$`));
    return link!;
  }

  const optouts = async (apiKey: string) => (await call(t.app, apiKey, 'GET', '/optouts')).body.optouts as Array<{ number: string; source: string }>;

  it('open the link, see the business, confirm, see the confirmation; then the number is opted out', async () => {
    const a = await createAccount(t.app, { name: 'Harbour Café & Bar' });
    const to = mobile();
    const link = await sendWithLink(a.apiKey, to);

    // A phone-sized viewport with JavaScript off: the page must work without it.
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 667 }, isMobile: true });
    try {
      const tab = await context.newPage();
      const response = await tab.goto(link);
      expect(response?.status()).toBe(200);
      await expect(tab.title()).resolves.toBe('Stop messages from Harbour Café & Bar');
      const heading = await tab.locator('h1').textContent();
      expect(heading).toBe('Stop messages from Harbour Café & Bar?');
      const text = await tab.locator('main').innerText();
      expect(text).toContain(`${to.slice(-3)}`);
      expect(text).not.toContain(to);
      const button = tab.getByRole('button', { name: 'Stop messages' });
      await expect(button.count()).resolves.toBe(1);
      expect(await optouts(a.apiKey)).toEqual([]);

      await Promise.all([tab.waitForURL(link), button.click()]);
      await tab.locator('h1', { hasText: "You're unsubscribed" }).waitFor();
      expect(await tab.locator('main').innerText()).toContain('Harbour Café & Bar will no longer send text messages');
    } finally {
      await context.close();
    }

    expect(await optouts(a.apiKey)).toEqual([expect.objectContaining({ number: to, source: 'link' })]);
    const next = await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'One more thing' });
    expect(next.status).toBe(400);
    expect(next.body.code).toBe('recipient_opted_out');
  });

  it('a plain GET (a link preview, or a visit without confirming) records nothing', async () => {
    const a = await createAccount(t.app);
    const to = mobile();
    const link = await sendWithLink(a.apiKey, to);
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      for (let i = 0; i < 3; i++) {
        expect((await tab.goto(link))?.status()).toBe(200);
        await tab.reload();
      }
    } finally {
      await context.close();
    }
    expect(await optouts(a.apiKey)).toEqual([]);
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'Still subscribed' })).status).toBe(200);
  });

  it('an unknown code shows the not-found page with status 404', async () => {
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      const response = await tab.goto(`${t.config.optoutLinkBase}/Zz9Zz9Z`);
      expect(response?.status()).toBe(404);
      await expect(tab.locator('h1').textContent()).resolves.toBe("This link isn't valid");
    } finally {
      await context.close();
    }
  });
});
