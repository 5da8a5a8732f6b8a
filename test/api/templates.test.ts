// Templates: saved texts that /send, /send-batch and their previews take as template_id instead of message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

describe('templates', () => {
  it('saves, lists, changes and deletes a template, and sends with template_id', async () => {
    const a = await createAccount(t.app, { credits: 10 });
    const made = await call(t.app, a.apiKey, 'POST', '/templates', { name: 'Reminder', body: 'Hi {{name}}, see you soon' });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    expect((await call(t.app, a.apiKey, 'GET', '/templates')).body.templates).toEqual([made.body]);
    const to = mobile();
    const batch = { template_id: id, recipients: [{ phone: to, merge_data: { name: 'Ana' } }] };
    const preview = await call(t.app, a.apiKey, 'POST', '/send-batch/preview', batch);
    expect(preview.body.recipients).toEqual([expect.objectContaining({ phone: to, text: 'Hi Ana, see you soon' })]);
    expect((await call(t.app, a.apiKey, 'POST', '/send-batch', batch)).body).toMatchObject({ recipients_queued: 1 });
    const changed = await call(t.app, a.apiKey, 'PATCH', `/templates/${id}`, { body: 'Your table is ready' });
    expect(changed.body).toMatchObject({ name: 'Reminder', body: 'Your table is ready' });
    const sent = await call(t.app, a.apiKey, 'POST', '/send', { to, template_id: id });
    expect(sent.status).toBe(200);
    expect((await call(t.app, a.apiKey, 'GET', `/message/${sent.body.message_id as string}`)).body.message).toMatchObject({ body: 'Your table is ready' });
    // Exactly one of message and template_id; another account's template is 404.
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to, template_id: id, message: 'x' })).body.code).toBe('validation_failed');
    expect((await call(t.app, a.apiKey, 'POST', '/send', { to })).body.code).toBe('validation_failed');
    const b = await createAccount(t.app);
    expect((await call(t.app, b.apiKey, 'POST', '/send', { to, template_id: id })).status).toBe(404);
    expect((await call(t.app, b.apiKey, 'GET', `/templates/${id}`)).status).toBe(404);
    expect((await call(t.app, a.apiKey, 'DELETE', `/templates/${id}`)).body).toEqual({ ok: true });
    expect((await call(t.app, a.apiKey, 'POST', '/send/preview', { to, template_id: id })).status).toBe(404);
  });
});
