// A forgotten password on a fresh `tasman start` (no SMTP_URL): "Forgot password?" on the sign-in page in Debian's
// Chromium, the link read from the operator's outbox, the reset page, then a sign-in with the new password.
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../support/poll.ts';
import { useTasmanInChromium } from '../support/browser-app.ts';
import { haveChromium, seriousViolations } from '../support/browser.ts';

const EMAIL = 'forgetful@harbour.test';
const NEW_PASSWORD = 'a brand new pass phrase';

describe.skipIf(!haveChromium)('a forgotten password, through the outbox, in a browser', () => {
  const s = useTasmanInChromium('tasman-reset-');

  it('asks for the email, emails a link (kept in the outbox and logged), and the link sets a new password', async () => {
    const token = s.adminToken();
    const operator = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    await fetch(`${s.proc.url}/admin/accounts`, { method: 'POST', headers: operator, body: JSON.stringify({ business_name: 'Harbour Cafe', email: EMAIL }) });

    await s.page.goto(`${s.proc.url}/app/login`);
    await s.page.getByRole('link', { name: 'Forgot password?' }).click();
    await s.page.getByRole('heading', { level: 1, name: 'Forgot password' }).waitFor();
    expect(await seriousViolations(s.page)).toEqual([]);
    await s.page.getByLabel('Email').fill(EMAIL);
    await s.page.getByRole('button', { name: 'Email me a reset link' }).click();
    await s.page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();

    const outbox = await (await fetch(`${s.proc.url}/admin/outbox?to=${EMAIL}`, { headers: operator })).json() as { mail: Array<{ kind: string; body: string }> };
    const reset = outbox.mail.find((m) => m.kind === 'password_reset')!;
    const link = new URL(/http:\/\/\S+\/app\/reset#[\w-]{43}/.exec(reset.body)![0]);
    // The log line of the kept mail carries the link too (written as the mail is kept; read as it arrives).
    await pollUntil(async () => s.proc.logs.join('\n'), (logs) => logs.includes(link.hash.slice(1)), 'the log line with the reset link', 10_000);

    await s.page.goto(`${s.proc.url}${link.pathname}${link.hash}`);
    await s.page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    expect(await seriousViolations(s.page)).toEqual([]);
    await s.page.getByLabel('New password').fill(NEW_PASSWORD);
    await s.page.getByRole('button', { name: 'Set password' }).click();
    await s.page.getByRole('heading', { level: 1, name: 'Password changed' }).waitFor();

    const signIn = await fetch(`${s.proc.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: NEW_PASSWORD }) });
    expect(signIn.status).toBe(200);
  });

  it('the operator console lists the outbox: the invitation and the reset, filtered by address', async () => {
    const token = s.adminToken();
    await s.page.goto(`${s.proc.url}/app/operator`);
    await s.page.getByRole('button', { name: 'Use the operator token instead' }).click();
    await s.page.getByLabel('Operator token').fill(token);
    await s.page.getByRole('button', { name: 'Sign in' }).click();
    await s.page.getByRole('heading', { level: 2, name: 'Email outbox' }).waitFor();
    await s.page.getByLabel('To (email)').fill(EMAIL);
    const table = s.page.getByRole('table', { name: 'Email outbox' });
    await table.getByText('Password reset').waitFor();
    await table.getByText('Invitation').waitFor();
    expect(await table.getByRole('row').count()).toBe(3);
  });
});
