// Credentials inside a webhook URL are sealed like signing secrets and masked in GET /webhooks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { rows } from '../../src/platform/db/client.ts';
import { open } from '../../src/platform/crypto/secret-box.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createScratchDatabase } from '../support/scratch-db.ts';
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

  it('saved before sealing existed (in plain text inside url) are sealed when Tasman starts', async () => {
    // A database of its own: any process starting on the shared one would seal this row with its own key.
    const scratch = await createScratchDatabase();
    const env = { WEBHOOK_ALLOW_PRIVATE: 'true', DATABASE_URL: scratch.url, TASMAN_SECRET_KEY: randomBytes(32).toString('hex') };
    let first: TestApp | null = await createTestApp(env);
    let second: TestApp | null = null;
    try {
      const a = await createAccount(first.app);
      await call(first.app, a.apiKey, 'PUT', '/webhooks/inbound', { url: 'https://hooks.example.com/mo', enabled: true });
      // The row as a release before migration 0016 left it: the credentials inside url, nothing sealed.
      await first.services.db.execute(sql`
        update webhook_endpoints set url = 'https://old%40user:p%3Ass@hooks.example.com/mo?x=1', url_credentials_sealed = null
        where account_id = ${a.accountId} and kind = 'inbound'`);
      await first.close();
      first = null;
      second = await createTestApp(env);
      const [stored] = await rows<{ url: string; sealed: Buffer | null }>(second.services.db, sql`
        select url, url_credentials_sealed as sealed from webhook_endpoints where account_id = ${a.accountId} and kind = 'inbound'`);
      expect(stored!.url).toBe('https://hooks.example.com/mo?x=1');
      expect(open(second.services.secretKey, stored!.sealed!)).toBe('old%40user:p%3Ass');
      const listed = JSON.stringify((await call(second.app, a.apiKey, 'GET', '/webhooks')).body);
      expect(listed).toContain('https://****:****@hooks.example.com/mo?x=1');
      expect(listed).not.toContain('p%3Ass');
      // Nothing left to do on the next start.
      expect(await second.services.webhooks.sealStoredUrlCredentials()).toBe(0);
    } finally {
      await first?.close();
      await second?.close();
      await scratch.drop();
    }
  });
});
