// Sender ID requests in Debian's Chromium against a real `tasman start`: the account owner asks for two Sender IDs
// on the Numbers & Sender IDs page, the operator rejects one with a reason and approves the other in the console,
// and the account's page shows both answers (the approved one among its Sender IDs). Axe (serious or critical) on
// the account page and the console section; each answer checked through the API too.
import { beforeAll, describe, expect, it } from 'vitest';
import { signInNewOwner, useTasmanInChromium } from '../support/browser-app.ts';
import { haveChromium, screenshot, seriousViolations } from '../support/browser.ts';

// Passes the ABN checksum (src/common/abn.ts), typed with spaces as people write it.
const ABN = '51 824 753 556';

describe.skipIf(!haveChromium)('Sender ID requests in a browser', () => {
  const s = useTasmanInChromium('tasman-sender-ids-');
  let apiKey = '';
  const api = async (url: string) => (await fetch(`${s.proc.url}${url}`, { headers: { authorization: `Bearer ${apiKey}` } })).json() as Promise<Record<string, unknown>>;
  const noSeriousViolations = async (name: string) => {
    expect(await seriousViolations(s.page), name).toEqual([]);
    await screenshot(s.page, name);
  };
  const openNumbers = async () => {
    await s.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Numbers & Sender IDs', exact: true }).click();
    await s.page.getByRole('heading', { level: 1, name: 'Numbers & Sender IDs' }).waitFor();
  };
  const ask = async (senderId: string, use: string) => {
    await s.page.getByLabel('Sender ID', { exact: true }).fill(senderId);
    await s.page.getByLabel('ABN').fill(ABN);
    await s.page.getByLabel('What you send as it').fill(use);
    await s.page.getByRole('button', { name: 'Ask for it' }).click();
    await s.page.getByText(`Asked for ${senderId}:`).waitFor();
  };

  beforeAll(async () => {
    ({ apiKey } = await signInNewOwner(s, { business_name: 'Manly Physio', email: 'owner@sender-ids.test', credits: 20 }));
  });

  it('the account asks for two, the operator rejects one with a reason and approves the other, and the account sees both', async () => {
    await openNumbers();
    await s.page.getByText('No Sender ID asked for yet.').waitFor();
    await ask('ManlyPhysio', 'Appointment reminders to our patients');
    await ask('PhysioNews', 'A monthly newsletter');
    const mine = s.page.getByRole('list', { name: 'Your Sender ID requests' });
    await expect.poll(() => mine.getByRole('listitem').filter({ hasText: 'requested' }).count()).toBe(2);
    const { requests: asked } = await api('/sender-ids') as { requests: Array<{ sender_id: string; abn: string; status: string }> };
    expect(asked.map((r) => [r.sender_id, r.abn, r.status]).sort()).toEqual([
      ['ManlyPhysio', '51824753556', 'requested'], ['PhysioNews', '51824753556', 'requested'],
    ]);
    await noSeriousViolations('sender-ids-requested');

    const operator = await (await s.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await operator.goto(`${s.proc.url}/operator`);
    await operator.getByRole('button', { name: 'Use the operator token instead' }).click();
    await operator.getByLabel('Operator token').fill(s.adminToken());
    await operator.getByRole('button', { name: 'Sign in' }).click();
    await operator.getByRole('heading', { name: 'Operator console' }).waitFor();
    const waiting = operator.getByRole('table', { name: 'Sender ID requests' });
    await waiting.getByRole('row').filter({ hasText: 'ManlyPhysio' }).getByText('Manly Physio').waitFor();
    await waiting.getByRole('row').filter({ hasText: 'PhysioNews' }).getByText('A monthly newsletter').waitFor();
    const section = operator.getByRole('heading', { level: 2, name: 'Sender ID requests' });
    await section.scrollIntoViewIfNeeded();
    expect(await seriousViolations(operator), 'console-sender-id-requests').toEqual([]);
    await screenshot(operator, 'console-sender-id-requests');

    await operator.getByLabel('Reason to reject PhysioNews').fill('Newsletters go from a number, not a Sender ID');
    await waiting.getByRole('row').filter({ hasText: 'PhysioNews' }).getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => waiting.getByRole('row').filter({ hasText: 'PhysioNews' }).count()).toBe(0);
    await operator.getByRole('button', { name: 'Approve ManlyPhysio' }).click();
    await operator.getByText('No requests waiting.').waitFor();
    // The console has two "Show" filters: this one is the requests' (the one offering "Waiting for review").
    await operator.getByLabel('Show requests').selectOption('all');
    await waiting.getByRole('row').filter({ hasText: 'PhysioNews' }).getByText('rejected: Newsletters go from a number, not a Sender ID').waitFor();
    await waiting.getByRole('row').filter({ hasText: 'ManlyPhysio' }).getByText('approved', { exact: true }).waitFor();
    await operator.context().close();

    await s.page.reload();
    await s.page.getByRole('heading', { level: 1, name: 'Numbers & Sender IDs' }).waitFor();
    const rejected = mine.getByRole('listitem').filter({ hasText: 'PhysioNews' });
    await rejected.getByText('rejected', { exact: true }).waitFor();
    await rejected.getByText('Rejected: Newsletters go from a number, not a Sender ID').waitFor();
    const approved = mine.getByRole('listitem').filter({ hasText: 'ManlyPhysio' });
    await approved.getByText('approved', { exact: true }).waitFor();
    await s.page.getByRole('list', { name: 'Your Sender IDs' }).getByText('ManlyPhysio', { exact: true }).waitFor();
    const { requests } = await api('/sender-ids') as { requests: Array<{ sender_id: string; status: string; reason: string | null }> };
    expect(requests.map((r) => [r.sender_id, r.status, r.reason]).sort()).toEqual([
      ['ManlyPhysio', 'approved', null], ['PhysioNews', 'rejected', 'Newsletters go from a number, not a Sender ID'],
    ]);
    await noSeriousViolations('sender-ids-answered');
  });
});
