// One endpoint's backlog, larger than its cap, drains by itself: a freed slot of an endpoint left at its cap wakes
// a claim once a quarter of the cap is free (claim-scan.ts claimOnAnswer), never more than the cap is open at the
// receiver, and nothing waits for the poll (here 10 minutes) or a notification (none reaches this worker).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/modules/webhooks/outbox.ts';
import { startWebhookWorker } from '../../src/modules/webhooks/webhooks.jobs.ts';
import type { QueueSignal } from '../../src/platform/jobs/signal.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount } from '../support/factories.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

let t: TestApp;
// A database of its own: the worker claims whatever is due, and must not take other files' deliveries.
beforeAll(async () => { t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { ownDatabase: true }); });
afterAll(async () => { await t?.close(); });

const silent = { raise: () => {}, subscribe: async () => async () => {}, close: async () => {} } as unknown as QueueSignal;

describe('one endpoint with a backlog', () => {
  it('drains past its cap without the poll, never more than the cap open at once', async () => {
    const CAP = 8;
    const EVENTS = 40;
    let open = 0;
    let mostOpen = 0;
    const r = await startReceiver({
      respond: async () => {
        open += 1;
        mostOpen = Math.max(mostOpen, open);
        await new Promise((resolve) => setTimeout(resolve, 5));
        open -= 1;
        return { status: 200 };
      },
    });
    try {
      const a = await createAccount(t.app);
      expect((await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url: `${r.url}/dlr`, enabled: true })).status).toBe(200);
      await t.services.db.transaction(async (tx) => {
        for (let i = 0; i < EVENTS; i += 1) {
          await recordEvent(tx, { accountId: a.accountId, event: 'message.dlr', messageId: '01a1fc97-f1e8-765e-92c4-fdeb302ed871', body: { n: i } });
        }
      });
      // Started after the events are written: its first claim finds them, and only freed slots wake the next ones.
      const stop = await startWebhookWorker({
        db: t.services.db, signal: silent, secretKey: t.services.secretKey, logger: createLogger('silent'),
        webhook: { retryDelays: [60], timeoutMs: 5000, allowPrivate: true },
        options: { pollMs: 600_000, perEndpoint: CAP, perEndpointMax: CAP },
      });
      try {
        const got = await r.waitFor(EVENTS, 15_000);
        expect(new Set(got.map((req) => (JSON.parse(req.body) as { n: number }).n)).size).toBe(EVENTS);
        expect(mostOpen).toBeLessThanOrEqual(CAP);
        expect(mostOpen).toBeGreaterThan(1);
      } finally {
        await stop();
      }
    } finally {
      await r.close();
    }
  });
});
