// The attempt log as GET /webhooks/deliveries shows it, with the compact storage behind it: a successful attempt
// is kept in its delivery's row (success_* columns), failed ones are webhook_attempts rows, and the API lists
// both, in the order they were made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, type TestAccount } from '../support/factories.ts';
import { useReceivers } from '../support/webhook-receiver.ts';
import { completeAttempts } from '../../src/modules/webhooks/delivery.repo.ts';
import { recordEvent } from '../../src/modules/webhooks/outbox.ts';
import { rows } from '../../src/platform/db/client.ts';
import { uuidv7 } from '../../src/platform/ids.ts';
import { pollUntil } from '../support/poll.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_RETRY_DELAYS: '0.05,0.1', WEBHOOK_ALLOW_PRIVATE: 'true' }, { workers: true });
});
afterAll(async () => { await t?.close(); });

const receiver = useReceivers();

type Attempt = { status_code: number | null; error: string | null; duration_ms: number; attempted_at: string };
type Delivery = { id: string; status: string; attempt_count: number; attempts: Attempt[] };

async function account(url: string): Promise<TestAccount> {
  const a = await createAccount(t.app);
  expect((await call(t.app, a.apiKey, 'PUT', '/webhooks/delivery', { url, enabled: true })).status).toBe(200);
  return a;
}

async function emit(a: TestAccount, body: unknown): Promise<string> {
  const id = await t.services.db.transaction((tx) => recordEvent(tx, { accountId: a.accountId, event: 'message.dlr', messageId: uuidv7(), body }));
  t.services.signals.webhooks.raise();
  return id!;
}

async function listed(a: TestAccount, id: string): Promise<Delivery> {
  const res = await call(t.app, a.apiKey, 'GET', '/webhooks/deliveries?limit=100');
  const found = (res.body.deliveries as Delivery[]).find((d) => d.id === id);
  if (!found) throw new Error(`delivery ${id} not listed`);
  return found;
}

const settled = (a: TestAccount, id: string): Promise<Delivery> =>
  pollUntil(() => listed(a, id), (d) => d.status !== 'pending', `delivery ${id} settled`, 30_000, 25);

const attemptRows = async (id: string) => (await rows<{ n: number }>(t.services.db, sql`
  select count(*)::int as n from webhook_attempts where delivery_id = ${id}`))[0]!.n;

describe('the attempt log', () => {
  it('a delivered first attempt is listed with its status code, kept in the delivery row', async () => {
    const r = await receiver(() => ({ status: 202 }));
    const a = await account(r.url);
    const id = await emit(a, { n: 'once' });
    const d = await settled(a, id);
    expect(d).toMatchObject({ status: 'delivered', attempt_count: 1 });
    expect(d.attempts).toEqual([{ attempted_at: expect.stringMatching(/Z$/), status_code: 202, error: null, duration_ms: expect.any(Number) }]);
    expect(Date.parse(d.attempts[0]!.attempted_at)).toBeLessThanOrEqual(r.requests[0]!.receivedAt.getTime());
    expect(await attemptRows(id)).toBe(0);
  });

  it('a retried delivery lists its failed attempts and then the successful one', async () => {
    const codes = [500, 429];
    let n = 0;
    const r = await receiver(() => ({ status: codes[n++] ?? 201 }));
    const a = await account(r.url);
    const id = await emit(a, { n: 'retried' });
    const d = await settled(a, id);
    expect(d).toMatchObject({ status: 'delivered', attempt_count: 3 });
    expect(d.attempts.map((x) => [x.status_code, x.error])).toEqual([[500, null], [429, null], [201, null]]);
    const times = d.attempts.map((x) => Date.parse(x.attempted_at));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(await attemptRows(id)).toBe(2);
  });

  it('redelivering a delivered one keeps its first success in the log beside the new one', async () => {
    const codes = [200, 503];
    let n = 0;
    const r = await receiver(() => ({ status: codes[n++] ?? 204 }));
    const a = await account(r.url);
    const id = await emit(a, { n: 'twice' });
    expect((await settled(a, id)).attempts.map((x) => x.status_code)).toEqual([200]);

    const res = await call(t.app, a.apiKey, 'POST', `/webhooks/deliveries/${id}/redeliver`);
    expect(res.status).toBe(200);
    expect((res.body.delivery as Delivery).attempts.map((x) => x.status_code)).toEqual([200]);
    await r.waitFor(3);
    const d = await settled(a, id);
    expect(d).toMatchObject({ status: 'delivered', attempt_count: 2 });
    expect(d.attempts.map((x) => x.status_code)).toEqual([200, 503, 204]);
  });

  it('a success recorded under a claim the row no longer holds is still logged, and changes nothing else', async () => {
    const a = await createAccount(t.app);
    const id = uuidv7();
    const current = uuidv7();
    await t.services.db.execute(sql`
      insert into webhook_deliveries (id, account_id, event, body, claim_token, lease_until, next_attempt_at)
      values (${id}, ${a.accountId}, 'message.dlr', '{}', ${current}, now() + interval '1 minute', now() + interval '1 minute')`);
    await completeAttempts(t.services.db, [{
      id, claim: uuidv7(), attemptId: uuidv7(), attemptedAt: new Date(), statusCode: 200, error: null, durationMs: 7,
      status: 'delivered', nextAt: null, endpoint: { accountId: a.accountId, event: 'message.dlr' },
    }]);
    const d = await listed(a, id);
    expect(d).toMatchObject({ status: 'pending', attempt_count: 0 });
    expect(d.attempts).toEqual([expect.objectContaining({ status_code: 200, duration_ms: 7 })]);
    expect(await attemptRows(id)).toBe(1);
  });
});
