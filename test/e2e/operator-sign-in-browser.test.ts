// A named operator's way into the console in Debian's Chromium against a real `tasman start`: the setup link
// (the authenticator secret shown, a password and the first code from otplib), the console open under their
// name; signed out, in again with name, password and a later code. Axe (serious or critical) on both forms.
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { useTasmanInChromium } from '../support/browser-app.ts';
import { haveChromium, screenshot, seriousViolations } from '../support/browser.ts';

const PASSWORD = 'harbour-lights-at-seven';
const NAME = 'Priya Raman';
// The setup takes the code of now's step, the sign-in the next step's: both within the one step either side the
// server accepts, and the second later than the first (a spent step is refused), with no wait for the clock.
const codeOfStep = (secret: string, ahead: number) => generate({ secret, epoch: (Math.floor(Date.now() / 30_000) + ahead) * 30 });

describe.skipIf(!haveChromium)('operator console sign-in in a browser', () => {
  const s = useTasmanInChromium('tasman-operator-sign-in-');

  it('sets up from the link with a password and a code, then signs in with name, password and code', async () => {
    const added = await fetch(`${s.proc.url}/admin/operators`, {
      method: 'POST', headers: { authorization: `Bearer ${s.adminToken()}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: NAME }),
    });
    expect(added.status).toBe(201);
    const link = new URL(((await added.json()) as { setup_url: string }).setup_url);
    const page = s.page;

    await page.goto(`${s.proc.url}${link.pathname}${link.hash}`);
    await page.getByRole('heading', { level: 1, name: 'Set up your operator sign-in' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'operator-setup');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Code from your authenticator app').fill(await codeOfStep(secret, 0));
    await page.getByRole('button', { name: 'Finish setup and sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Operator console' }).waitFor();
    await page.getByText(`Signed in as ${NAME}`).waitFor();
    await page.waitForURL(/\/app\/operator$/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Operator sign-in' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Name').fill(NAME);
    await page.getByLabel('Password').fill(PASSWORD);
    // A wrong code is refused in words, without saying which field was wrong; the next step's opens the console.
    await page.getByLabel('Code from your authenticator app').fill('000000');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Wrong name, password or code').waitFor();
    await page.getByLabel('Code from your authenticator app').fill(await codeOfStep(secret, 1));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText(`Signed in as ${NAME}`).waitFor();
    await screenshot(page, 'operator-console-named');
  }, 120_000);
});
