// An SMSC that restarts or wraps its counter hands a new message an id an older, already final message holds. The
// new message's receipt can come before its `sent` write commits: the only holder then is the old message. A
// receipt about another handset is not a repeat of the old one's: it is parked, and applied when the new message
// records the id. A repeat (the same handset) still changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/client.ts';
import { recordSent } from '../../src/modules/dispatch/dispatch.repo.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { receipt, smscId } from '../support/receipts.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const status = async (key: string, id: string) => ((await call(t.app, key, 'GET', `/message/${id}`)).body.message as { status: string }).status;
const parked = async (carrier: string) => Number((await rows<{ n: string }>(t.services.db, sql`select count(*) as n from pending_receipts where carrier = ${carrier}`))[0]!.n);
const digits = (n: string) => n.replace(/\D/g, '');

async function accepted(key: string, to = mobile()) {
  const sent = await call(t.app, key, 'POST', '/send', { to, message: 'Hello' });
  expect(sent.status).toBe(200);
  return { id: sent.body.message_id as string, to };
}

describe.each<[string, (id: string) => { smscMessageId: string; segmentIds?: string[] }]>([
  ['a single-part message', (id: string) => ({ smscMessageId: id })],
  ['a segment of a long message', (id: string) => ({ smscMessageId: id, segmentIds: [id, `${id}-2`] })],
])('an id reused after %s', (_, holding) => {
  it('the new message\'s early receipt is parked, not taken for a repeat, and applied when its `sent` write commits', async () => {
    const carrier = `reuse-${randomUUID().slice(0, 8)}`;
    const a = await createAccount(t.app);
    const id = smscId();
    const old = await accepted(a.apiKey);
    await recordSent(t.services.db, [{ id: old.id, claim: null, carrier, sentAt: new Date(Date.now() - 60_000), ...holding(id) }]);
    for (const part of holding(id).segmentIds ?? [id]) await t.services.receipts.onReceipt(receipt(part, { carrier, recipient: digits(old.to) }));
    expect(await status(a.apiKey, old.id)).toBe('delivered');

    const fresh = await accepted(a.apiKey);
    // Its receipt overtakes its `sent` write: only the old, final message holds the id now.
    expect(await t.services.receipts.onReceipt(receipt(id, { carrier, recipient: digits(fresh.to), state: 'undelivered', errorCode: '001' }))).toEqual({ matched: null });
    expect(await parked(carrier)).toBe(1);
    // The backstop leaves it: the old message cannot take it.
    await t.services.receipts.sweepParked();
    expect(await parked(carrier)).toBe(1);

    // The dispatcher records the id, then looks for parked receipts.
    await recordSent(t.services.db, [{ id: fresh.id, claim: null, smscMessageId: id, carrier, sentAt: new Date() }]);
    expect(await t.services.receipts.resolveParked([id])).toBe(1);
    expect(await status(a.apiKey, fresh.id)).toBe('failed');
    expect(await status(a.apiKey, old.id)).toBe('delivered');
    expect(await parked(carrier)).toBe(0);
  });
});

it('a repeat of a final message\'s receipt (the same handset) changes nothing and is not parked', async () => {
  const carrier = `repeat-${randomUUID().slice(0, 8)}`;
  const a = await createAccount(t.app);
  const id = smscId();
  const old = await accepted(a.apiKey);
  await recordSent(t.services.db, [{ id: old.id, claim: null, smscMessageId: id, carrier, sentAt: new Date() }]);
  await t.services.receipts.onReceipt(receipt(id, { carrier, recipient: digits(old.to) }));
  expect(await t.services.receipts.onReceipt(receipt(id, { carrier, recipient: digits(old.to), state: 'undelivered', errorCode: '001' }))).toEqual({ matched: id });
  expect(await status(a.apiKey, old.id)).toBe('delivered');
  expect(await parked(carrier)).toBe(0);
});

it('a parked receipt only a final message of another handset holds is counted unmatched after a minute', async () => {
  const carrier = `unmatched-${randomUUID().slice(0, 8)}`;
  const a = await createAccount(t.app);
  const id = smscId();
  const old = await accepted(a.apiKey);
  await recordSent(t.services.db, [{ id: old.id, claim: null, smscMessageId: id, carrier, sentAt: new Date() }]);
  await t.services.receipts.onReceipt(receipt(id, { carrier, recipient: digits(old.to) }));
  await t.services.receipts.onReceipt(receipt(id, { carrier, recipient: digits(mobile()) }));
  await t.services.db.execute(sql`update pending_receipts set received_at = now() - interval '2 minutes' where carrier = ${carrier}`);
  expect((await t.services.receipts.orphans()).find((o) => o.carrier === carrier)).toMatchObject({ count: 1, sampleId: id });
  await t.services.receipts.purgeOrphans(60_000);
  expect(await parked(carrier)).toBe(0);
});
