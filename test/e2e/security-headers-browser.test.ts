// The Content-Security-Policy of every page people open, in Debian's Chromium against a real `tasman start`: each
// page of the dashboard after sign-in, the API reference at /docs and the public opt-out page load and work with
// no CSP violation (securitypolicyviolation events and console errors both collected); and a script injected
// into a page is refused and reported, so the collector is shown to catch one.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleMessage, Page } from 'playwright-core';
import { useTasmanInChromium } from '../support/browser-app.ts';
import { haveChromium } from '../support/browser.ts';

const PASSWORD = 'harbour-lights-at-seven';
const DASHBOARD_PAGES = ['', 'send', 'messages', 'campaigns', 'inbox', 'optouts', 'numbers', 'developers/keys', 'developers/webhooks',
  'team', 'sub-accounts', 'reports', 'audit', 'settings', 'security'];

/** Every CSP violation the page reports from now on, as events and as console errors. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => { seen.push(text); });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportCspViolation(text: string): void })
        .reportCspViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.documentURI}`);
    });
  });
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) seen.push(`console: ${message.text()}`);
  });
  return seen;
}

describe.skipIf(!haveChromium)('Content-Security-Policy in a browser', () => {
  const s = useTasmanInChromium('tasman-csp-');

  let created: { owner_invite_url: string; api_key: string };
  let violations: string[];

  beforeAll(async () => {
    const operator = { authorization: `Bearer ${s.adminToken()}`, 'content-type': 'application/json' };
    created = await (await fetch(`${s.proc.url}/admin/accounts`, {
      method: 'POST', headers: operator, body: JSON.stringify({ business_name: 'Harbour Dental', email: 'owner@csp.test', credits: 50, hierarchy_enabled: true }),
    })).json() as typeof created;
    violations = await watchViolations(s.page);
  });

  it('every page of the dashboard, signed in, loads without a violation', async () => {
    const page = s.page;
    // Sign in through the invite link (the invite and the sign-in page are dashboard pages too).
    const invite = new URL(created.owner_invite_url);
    await page.goto(`${s.proc.url}${invite.pathname}${invite.hash}`);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    for (const path of DASHBOARD_PAGES) {
      const res = await page.goto(`${s.proc.url}/app/${path}`);
      expect(res!.headers()['content-security-policy'], path).toContain("script-src 'self'");
      expect(res!.headers()['x-content-type-options'], path).toBe('nosniff');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    }
    // Two-factor enrolment shows its setup key and link.
    await page.goto(`${s.proc.url}/app/security`);
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByTestId('totp-secret').waitFor();
    expect(violations).toEqual([]);
  }, 180_000);

  it('the API reference at /docs renders and opens an operation without a violation', async () => {
    const page = s.page;
    const docs = await page.goto(`${s.proc.url}/docs/`);
    expect(docs!.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(docs!.headers()['x-frame-options']).toBe('DENY');
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(violations).toEqual([]);
  }, 180_000);

  it('the opt-out page, opened from a sent message and confirmed, has its styles and no violation', async () => {
    const page = s.page;
    const key = { authorization: `Bearer ${created.api_key}`, 'content-type': 'application/json' };
    const sent = await (await fetch(`${s.proc.url}/send`, {
      method: 'POST', headers: key, body: JSON.stringify({ to: '+61412345678', message: 'Winter menu is out! Opt out: {{OptOutLink}}' }),
    })).json() as { message_id: string };
    const got = await (await fetch(`${s.proc.url}/message/${sent.message_id}`, { headers: key })).json() as { message: { body: string } };
    const link = new URL(/https?:\/\/\S+$/.exec(got.message.body)![0]);
    const optout = await page.goto(`${s.proc.url}${link.pathname}`);
    expect(optout!.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(optout!.headers()['referrer-policy']).toBe('no-referrer');
    // Its one stylesheet, allowed by hash, applied: the heading is 1.5rem.
    expect(await page.locator('h1').evaluate((h) => getComputedStyle(h).fontSize)).toBe('24px');
    await page.getByRole('button', { name: 'Stop messages' }).click();
    await page.getByRole('status').getByText('You\'re unsubscribed').waitFor();
    expect(violations).toEqual([]);
  }, 180_000);

  it('a script injected into a dashboard page is refused, and the collector reports it', async () => {
    const page = s.page;
    await page.goto(`${s.proc.url}/app/`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injectedRan = true';
      document.body.append(script);
      return (window as unknown as { injectedRan?: boolean }).injectedRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(violations.join('\n')).toMatch(/script-src/);
  }, 180_000);
});
