// Contacts, lists and templates in Debian's Chromium against a real `tasman start`: a CSV imported with its columns
// mapped (into a new list), searched and filtered by list; a template saved, changed, and picked on the Send page,
// which sends it by template_id. Each checked through the API, with axe (serious or critical) on every page.
import { beforeAll, describe, expect, it } from 'vitest';
import { signInNewOwner, useTasmanInChromium } from '../support/browser-app.ts';
import { haveChromium, screenshot, seriousViolations } from '../support/browser.ts';


describe.skipIf(!haveChromium)('contacts, lists and templates in a browser', () => {
  const s = useTasmanInChromium('tasman-contacts-');
  let apiKey = '';
  const api = async (url: string) => (await fetch(`${s.proc.url}${url}`, { headers: { authorization: `Bearer ${apiKey}` } })).json() as Promise<Record<string, unknown>>;
  const heading = (name: string) => s.page.getByRole('heading', { level: 1, name }).waitFor();
  const open = async (link: string) => {
    await s.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
    await heading(link);
  };
  const noSeriousViolations = async (name: string) => {
    expect(await seriousViolations(s.page), name).toEqual([]);
    await screenshot(s.page, name);
  };

  beforeAll(async () => {
    ({ apiKey } = await signInNewOwner(s, { business_name: 'Manly Physio', email: 'owner@contacts.test', credits: 20 }));
  });

  it('imports a CSV with its columns mapped into a new list, and finds the contacts by search and by list', async () => {
    await open('Contacts');
    await s.page.getByText('No contacts yet').waitFor();
    await s.page.getByLabel('New list').fill('Manly patients');
    await s.page.getByRole('button', { name: 'Create list' }).click();
    await s.page.getByRole('list', { name: 'Your lists' }).getByText('Manly patients · 0 contacts').waitFor();
    await noSeriousViolations('contacts-empty');

    // Headers the API would not read by themselves: "Cell" is the number, "Given" the first name, "Clinic" a field,
    // and "Notes" left out.
    const csv = 'Given,Cell,Clinic,Notes\nAna,0412 345 671,Manly,likes mornings\nBen,0412 345 672,Dee Why,\nCat,12,Manly,\n';
    await s.page.getByLabel('CSV file').setInputFiles({ name: 'patients.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await s.page.getByText('Choose exactly one column as the phone number').waitFor();
    await s.page.getByLabel('Column “Cell”').selectOption('phone');
    await s.page.getByLabel('Column “Given”').selectOption('first_name');
    await s.page.getByLabel('Column “Notes”').selectOption('');
    expect(await s.page.getByLabel('Column “Clinic”').inputValue()).not.toBe('');
    await s.page.getByLabel('Add them to a list (optional)').selectOption({ label: 'Manly patients' });
    await noSeriousViolations('contacts-import-mapping');
    await s.page.getByRole('button', { name: 'Import' }).click();
    await s.page.getByText(/Imported: 2 new, 0 updated\. Not imported: row 4 \(12:/).waitFor();

    const { contacts } = await api('/contacts') as { contacts: Array<{ phone: string; first_name: string | null; fields: Record<string, string>; lists: string[] }> };
    expect(contacts.map((c) => [c.phone, c.first_name, c.fields]).sort()).toEqual([
      ['+61412345671', 'Ana', { Clinic: 'Manly' }], ['+61412345672', 'Ben', { Clinic: 'Dee Why' }],
    ]);
    expect(new Set(contacts.map((c) => c.lists.length))).toEqual(new Set([1]));
    const table = s.page.getByRole('table', { name: 'Contacts' });
    await table.getByRole('row').filter({ hasText: 'Ana' }).getByText('Manly patients').waitFor();
    await s.page.getByRole('list', { name: 'Your lists' }).getByText('Manly patients · 2 contacts').waitFor();

    await s.page.getByLabel('Search contacts').fill('Ben');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await table.getByText('+61412345672').waitFor();
    await s.page.getByLabel('Search contacts').fill('');
    await s.page.getByRole('button', { name: 'Show the contacts in Manly patients' }).click();
    expect(await s.page.getByLabel('List', { exact: true }).inputValue()).not.toBe('');
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    await noSeriousViolations('contacts');
  });

  it('saves and changes a template, and the Send page sends it by template_id', async () => {
    await open('Templates');
    await s.page.getByText('No templates yet.').waitFor();
    await s.page.getByLabel('Name').fill('Reminder');
    await s.page.getByLabel('Message').fill('See you tomorrow.');
    await s.page.getByRole('button', { name: 'Save template' }).click();
    await s.page.getByRole('list', { name: 'Your templates' }).getByText('See you tomorrow.').waitFor();
    await s.page.getByRole('button', { name: 'Change the template Reminder' }).click();
    await s.page.getByLabel('Message').fill('See you tomorrow at 9.');
    await s.page.getByRole('button', { name: 'Save', exact: true }).click();
    await s.page.getByRole('list', { name: 'Your templates' }).getByText('See you tomorrow at 9.').waitFor();
    await noSeriousViolations('templates');

    await open('Send');
    await s.page.getByLabel('To', { exact: true }).fill('+61412345673');
    await s.page.getByLabel('Template').selectOption({ label: 'Reminder' });
    expect(await s.page.getByLabel('Message', { exact: true }).inputValue()).toBe('See you tomorrow at 9.');
    await s.page.getByText(/^To \+61412345673 · 1 credit/).waitFor();
    await noSeriousViolations('send-template');
    const request = s.page.waitForRequest((r) => new URL(r.url()).pathname === '/send' && r.method() === 'POST');
    await s.page.getByRole('button', { name: 'Send', exact: true }).click();
    const { template_id: templateId, message } = (await request).postDataJSON() as { template_id?: string; message?: string };
    const { templates } = await api('/templates') as { templates: Array<{ id: string }> };
    expect([templateId, message]).toEqual([templates[0]!.id, undefined]);
    await s.page.getByText('Sent.').waitFor();
    const { messages } = await api('/messages') as { messages: Array<{ recipient: string; body: string }> };
    expect(messages.find((m) => m.recipient === '+61412345673')?.body).toBe('See you tomorrow at 9.');
  });
});
