// Issue 10 item 25: credentials inside a webhook URL are sealed like signing secrets and masked in GET /webhooks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }); });
afterAll(async () => { await t.close(); });

describe('webhook URL credentials', () => {
  it('are stored sealed, never shown back, and the rest of the URL is kept', async () => {
    const a = await createAccount(t.app);
    const put = await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://hookuser:hunter2@hooks.example.com/in', enabled: true });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain('hunter2');
    const listed = await call(t.app, a.apiKey, 'GET', '/webhooks');
    expect(JSON.stringify(listed.body)).not.toContain('hunter2');
    expect(JSON.stringify(listed.body)).not.toContain('hookuser');
    expect(JSON.stringify(listed.body)).toContain('https://****:****@hooks.example.com/in');
    const [stored] = await rows<{ url: string; sealed: string }>(t.services.db, sql`
      select url, encode(url_credentials_sealed, 'escape') as sealed from webhook_endpoints where account_id = ${a.accountId}`);
    expect(stored!.url).toBe('https://hooks.example.com/in');
    expect(stored!.sealed).not.toContain('hunter2');
    // A PUT without credentials drops them.
    await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: 'https://hooks.example.com/in', enabled: true });
    expect(JSON.stringify((await call(t.app, a.apiKey, 'GET', '/webhooks')).body)).not.toContain('****');
  });
});
