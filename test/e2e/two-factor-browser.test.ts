// The TOTP second factor in Debian's Chromium against a real `tasman start`: enrol on the Security page with a
// code otplib makes from the shown secret, sign out, sign in with the password and then the code, turn it off.
// Axe (serious or critical) on the Security page and the code step, at desktop and phone width.
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { useTasmanInChromium } from '../support/browser-app.ts';
import { haveChromium, screenshot, seriousViolations } from '../support/browser.ts';

const PASSWORD = 'harbour-lights-at-seven';
const EMAIL = 'two-factor@harbour.test';

// A code for the step after now's: accepted (one step ahead is allowed) and never the step the previous code
// spent, even when the clock crosses into the next step meanwhile. Real time: the process runs the real clock.
const stepNow = () => Math.floor(Date.now() / 30_000);
const nextCode = (secret: string) => generate({ secret, epoch: (stepNow() + 1) * 30 });

describe.skipIf(!haveChromium)('two-factor authentication in a browser', () => {
  const s = useTasmanInChromium('tasman-2fa-');
  let secret = '';
  let spentStep = 0;

  const heading = (name: string) => s.page.getByRole('heading', { level: 1, name }).waitFor();
  async function axeAtBothWidths(name: string) {
    for (const [width, label] of [[1280, 'desktop'], [390, 'phone']] as const) {
      await s.page.setViewportSize({ width, height: 900 });
      expect(await seriousViolations(s.page), `${name} at ${width}px`).toEqual([]);
      await screenshot(s.page, `${name}-${label}`);
    }
    await s.page.setViewportSize({ width: 1280, height: 900 });
  }

  async function signOutAndIn() {
    await s.page.getByRole('button', { name: 'Sign out' }).click();
    await s.page.waitForURL(/\/app\/login$/);
    await s.page.getByLabel('Email').fill(EMAIL);
    await s.page.getByLabel('Password').fill(PASSWORD);
    await s.page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('enrols on the Security page: the secret as text, the first code turns it on, recovery codes shown once', async () => {
    const token = s.adminToken();
    const created = await (await fetch(`${s.proc.url}/admin/accounts`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'Harbour Cafe', email: EMAIL }),
    })).json() as { owner_invite_url: string };
    const link = new URL(created.owner_invite_url);
    await s.page.goto(`${s.proc.url}${link.pathname}${link.hash}`);
    await s.page.getByLabel('Password').fill(PASSWORD);
    await s.page.getByRole('button', { name: 'Set password' }).click();
    await heading('Overview');

    await s.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Security', exact: true }).click();
    await heading('Security');
    await s.page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    secret = (await s.page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await s.page.getByRole('link', { name: /^otpauth:\/\/totp\// }).getAttribute('href')).toContain(`secret=${secret}`);
    await axeAtBothWidths('security-enrol');
    await s.page.getByLabel('Authentication code').fill('000000');
    await s.page.getByRole('button', { name: 'Turn on' }).click();
    await s.page.getByText('That code is not right').waitFor();
    spentStep = stepNow() + 1;
    await s.page.getByLabel('Authentication code').fill(await nextCode(secret));
    await s.page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => s.page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBe(10);
    await s.page.getByText('10 of 10 recovery codes left').waitFor();
    await axeAtBothWidths('security-enabled');
  });

  it('signs in with the password, then asks for the code: a wrong one is refused next to the field, the right one signs in', async () => {
    await signOutAndIn();
    await heading('Two-factor authentication');
    await axeAtBothWidths('sign-in-code');
    await s.page.getByLabel('Authentication code').fill('000000');
    await s.page.getByRole('button', { name: 'Verify' }).click();
    await s.page.getByText('That code is not right').waitFor();
    // The enrolment spent a step: the code below must be of a later one (replay is refused).
    while (stepNow() < spentStep) await new Promise((r) => setTimeout(r, 500));
    await s.page.getByLabel('Authentication code').fill(await nextCode(secret));
    await s.page.getByRole('button', { name: 'Verify' }).click();
    await heading('Overview');
  }, 90_000);

  it('turns it off with the password; signing in then takes the password alone', async () => {
    await s.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Security', exact: true }).click();
    await heading('Security');
    await s.page.getByLabel('Or your password').fill(PASSWORD);
    await s.page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await s.page.getByRole('button', { name: 'Set up two-factor authentication' }).waitFor();
    await signOutAndIn();
    await heading('Overview');
  });
});
