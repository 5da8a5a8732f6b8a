// Parked receipts on the real database: the backstop finds them by their holder, so receipts nothing holds
// (orphans) never sit ahead; orphans are counted in /metrics and deleted after their age; and the transaction that
// records a resent message settles its first copy's parked receipt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { recordSent } from '../../src/modules/dispatch/dispatch.repo.ts';
import { parkReceipt } from '../../src/modules/receipts/parked.repo.ts';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { receipt, smscId } from '../support/receipts.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const ago = (ms: number) => new Date(Date.now() - ms);

async function queuedMessage(to = mobile()) {
  const a = await createAccount(t.app);
  await t.services.db.execute(sql`
    insert into webhook_endpoints (account_id, kind, url) values (${a.accountId}, 'delivery_receipt', 'https://example.com/dlr')`);
  const sent = await call(t.app, a.apiKey, 'POST', '/send', { to, message: 'first copy' });
  const id = sent.body.message_id as string;
  // Accepted a minute ago: its first copy went before the receipts below arrived.
  await t.services.db.execute(sql`update messages set created_at = now() - interval '1 minute' where id = ${id}`);
  return { a, id, to };
}
const view = async (key: string, id: string) => (await call(t.app, key, 'GET', `/message/${id}`)).body;
const dlrEvents = async (id: string) => (await rows(t.services.db, sql`select 1 from webhook_deliveries where message_id = ${id} and event = 'message.dlr'`)).length;
const parkedCount = async (carrier: string) => Number((await rows<{ n: string }>(t.services.db, sql`select count(*) as n from pending_receipts where carrier = ${carrier}`))[0]!.n);

describe('parked receipts', () => {
  it('the backstop applies a held receipt however many orphans are older, and counts and purges the orphans', async () => {
    const carrier = `orphans-${randomUUID().slice(0, 8)}`;
    // 600 receipts no message will ever hold, all older than the one that matters.
    await t.services.db.execute(sql`
      insert into pending_receipts (carrier, smsc_message_id, receipt, received_at)
      select ${carrier}, 'orphan' || g, '{"state":"delivered","errorCode":null}'::jsonb, now() - make_interval(hours => 2) - make_interval(secs => g)
      from generate_series(1, 600) g`);
    const { a, id } = await queuedMessage();
    const smsc = smscId();
    await parkReceipt(t.services.db, { carrier, smscId: smsc }, { state: 'delivered', errorCode: null }, ago(1000));
    // Recorded by a path that does not look for parked receipts (a process that died right after its commit).
    await recordSent(t.services.db, [{ id, claim: null, smscMessageId: smsc, carrier, sentAt: new Date() }]);

    // A look-up of 10 finds it: orphans are never read ahead of it.
    expect(await t.services.receipts.sweepParked(10)).toBeGreaterThanOrEqual(1);
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'delivered' }, delivery_receipt: { status: 'delivered' } });
    expect(await dlrEvents(id)).toBe(1);

    const stats = (await t.services.receipts.orphans()).find((o) => o.carrier === carrier);
    expect(stats).toMatchObject({ count: 600, sampleId: 'orphan600' });
    expect(stats!.oldestSeconds).toBeGreaterThan(7_200);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(metrics.body).toContain(`tasman_receipts_unmatched{carrier="${carrier}"} 600`);
    expect(metrics.body).toMatch(new RegExp(`tasman_receipts_unmatched_oldest_age_seconds\\{carrier="${carrier}"\\} 7[0-9]{3}`));

    // Deleted after their age; a younger one nothing holds yet stays (its message may still be recorded).
    await parkReceipt(t.services.db, { carrier, smscId: 'young' }, { state: 'delivered', errorCode: null }, ago(60_000));
    await t.services.receipts.purgeOrphans(3 * 3_600_000);
    expect(await parkedCount(carrier)).toBe(601);
    await t.services.receipts.purgeOrphans(3_600_000);
    expect(await parkedCount(carrier)).toBe(1);
  });

  it('recording a resent message applies its first copy\'s delivered receipt in the same transaction', async () => {
    const carrier = `resend-${randomUUID().slice(0, 8)}`;
    const { a, id, to } = await queuedMessage();
    // The first copy's receipt came while no message held its id (its `sent` write died with its process). This
    // SMSC writes the handset in national form (04…): the same handset as the message's +614… all the same.
    const first = smscId();
    await t.services.receipts.onReceipt(receipt(first, { carrier, recipient: `0${to.slice(3)}` }));
    await t.services.db.execute(sql`update pending_receipts set received_at = now() - interval '10 seconds' where carrier = ${carrier}`);
    expect(await parkedCount(carrier)).toBe(1);

    const recorded = await recordSent(t.services.db, [{ id, claim: null, smscMessageId: smscId(), carrier, sentAt: new Date(), resent: true }], t.services.receipts.settleResent);
    expect(recorded.has(id)).toBe(true);
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'delivered' }, delivery_receipt: { status: 'delivered' } });
    expect(await dlrEvents(id)).toBe(1);
    expect(await parkedCount(carrier)).toBe(0);
  });

  it('a first copy\'s failed receipt is deleted, and the new copy\'s receipt decides', async () => {
    const carrier = `resend-${randomUUID().slice(0, 8)}`;
    const { a, id, to } = await queuedMessage();
    await parkReceipt(t.services.db, { carrier, smscId: smscId() }, { state: 'undelivered', errorCode: '001' }, ago(10_000), { recipient: to });
    // One for someone else stays: it is not this message's.
    await parkReceipt(t.services.db, { carrier, smscId: smscId() }, { state: 'delivered', errorCode: null }, ago(10_000), { recipient: mobile() });
    const second = smscId();
    await recordSent(t.services.db, [{ id, claim: null, smscMessageId: second, carrier, sentAt: new Date(), resent: true }], t.services.receipts.settleResent);
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'sent' } });
    expect(await parkedCount(carrier)).toBe(1);
    await t.services.receipts.onReceipt(receipt(second, { carrier }));
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'delivered' } });
    expect(await dlrEvents(id)).toBe(1);
  });

  it('a receipt the SMSC resends is recognised: no second apply, no second webhook', async () => {
    const { a, id } = await queuedMessage();
    const smsc = smscId();
    await recordSent(t.services.db, [{ id, claim: null, smscMessageId: smsc, sentAt: new Date() }]);
    const r = receipt(smsc);
    const before = t.services.receipts.resentCopies();
    // Two copies at once (the second answered with the first, after its commit), then one after it (found final).
    await Promise.all([t.services.receipts.onReceipt(r), t.services.receipts.onReceipt({ ...r })]);
    expect(t.services.receipts.resentCopies() - before).toBe(1);
    await t.services.receipts.onReceipt({ ...r });
    expect(await view(a.apiKey, id)).toMatchObject({ message: { status: 'delivered' } });
    expect(await dlrEvents(id)).toBe(1);
  });

  it('an id with two readings is applied only when exactly one message matches; several is a conflict', async () => {
    const carrier = `readings-${randomUUID().slice(0, 8)}`;
    const one = await queuedMessage();
    const other = await queuedMessage();
    await recordSent(t.services.db, [
      { id: one.id, claim: null, smscMessageId: '100', carrier, sentAt: new Date() },
      { id: other.id, claim: null, smscMessageId: '256', carrier, sentAt: new Date() },
    ]);
    // "100" read as decimal and as hex (0x100 = 256): both name a message awaiting its receipt.
    expect(await t.services.receipts.onReceipt(receipt('100', { carrier, otherIds: ['256'] }))).toEqual({ matched: null, conflict: true });
    expect(await view(one.a.apiKey, one.id)).toMatchObject({ message: { status: 'sent' } });
    expect(await view(other.a.apiKey, other.id)).toMatchObject({ message: { status: 'sent' } });
    // "400" (0x400 = 1024): only the decimal reading has a message.
    const third = await queuedMessage();
    await recordSent(t.services.db, [{ id: third.id, claim: null, smscMessageId: '400', carrier, sentAt: new Date() }]);
    expect(await t.services.receipts.onReceipt(receipt('400', { carrier, otherIds: ['1024'] }))).toEqual({ matched: '400' });
    expect(await view(third.a.apiKey, third.id)).toMatchObject({ message: { status: 'delivered' } });
  });
});
