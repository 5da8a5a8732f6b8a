// Receipts do not queue behind another transaction's lock: a receipt is committed, and so can be
// acknowledged, while an earlier receipt is still waiting for its message's row lock. Receipts go one batch at a
// time (group commit), and a batch never waits for a lock: it skips a row another transaction holds and that
// receipt goes the one-receipt way, which waits on its own connection. Were the batch to wait, every receipt behind
// it would, and since an SMSC keeps only a window of receipts unacknowledged, that wait would cap the receipt rate
// (docs/decisions/0014-receipts-are-matched-and-batched.md).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Receipt } from '../../src/carrier/carrier.ts';
import { rows } from '../../src/platform/db/client.ts';
import { recordSent } from '../../src/modules/dispatch/dispatch.repo.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const receipt = (id: string): Receipt => ({ smscMessageId: id, state: 'delivered', final: true, errorCode: '000', doneAt: new Date() });
const freshSmscId = () => randomUUID().replace(/-/g, '').slice(0, 16);

/** A message accepted by the API and recorded as sent under an SMSC id (a fresh one unless given), as the dispatcher would. */
async function sentMessage(apiKey: string, smsc = freshSmscId(), sentAt = new Date()) {
  const sent = await call(t.app, apiKey, 'POST', '/send', { to: mobile(), message: 'Hello' });
  const id = sent.body.message_id as string;
  expect((await recordSent(t.services.db, [{ id, claim: null, smscMessageId: smsc, sentAt }])).has(id)).toBe(true);
  return { id, smsc };
}

const status = async (apiKey: string, id: string) =>
  ((await call(t.app, apiKey, 'GET', `/message/${id}`)).body.message as { status: string }).status;

/** Another transaction holds the message's row until `release()`; `end()` releases it and waits for its commit. */
async function holdRow(messageId: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let holder!: number;
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => { locked = resolve; });
  const holding = t.services.db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from messages where id = ${messageId} for update`);
    holder = (await rows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`))[0]!.pid;
    locked();
    await released;
  });
  // Cleanup only, never reached when the behaviour holds: without it a failing build would hang on the lock.
  const guard = setTimeout(release, 20_000);
  await isLocked;
  return {
    release,
    /** Until a statement is really blocked behind the holder (on the server, waiting), or `stop()` says to look no more. */
    async untilBlocked(stop: () => boolean = () => false) {
      await pollUntil(async () => stop() || (await rows<{ pid: number }>(t.services.db, sql`
        select pid from pg_stat_activity where ${holder}::int = any(pg_blocking_pids(pid))`)).length > 0, Boolean, 'a statement blocked behind the holder', 60_000, 10);
    },
    async end() {
      clearTimeout(guard);
      release();
      await holding;
    },
  };
}

it("commits a receipt while another receipt is still waiting for its message's row lock", async () => {
  const a = await createAccount(t.app);
  const held = await sentMessage(a.apiKey);
  const free = await sentMessage(a.apiKey);

  const lock = await holdRow(held.id);
  try {
    let heldSettled = false;
    const heldReceipt = t.services.receipts.onReceipt(receipt(held.smsc)).finally(() => { heldSettled = true; });
    await lock.untilBlocked();

    await t.services.receipts.onReceipt(receipt(free.smsc));
    expect(heldSettled).toBe(false);
    expect(await status(a.apiKey, free.id)).toBe('delivered');
    expect(await status(a.apiKey, held.id)).toBe('sent');

    lock.release();
    await heldReceipt;
    expect(await status(a.apiKey, held.id)).toBe('delivered');
  } finally {
    await lock.end();
  }
}, 30_000);

it('skips a message whose row another transaction holds without taking an older message with the same id for it', async () => {
  const a = await createAccount(t.app);
  // The SMSC reused an id: the newer message holds it, the older one (sent, no receipt yet) must not take it.
  const older = await sentMessage(a.apiKey, freshSmscId(), new Date(Date.now() - 60_000));
  const newer = await sentMessage(a.apiKey, older.smsc);

  const lock = await holdRow(newer.id);
  try {
    let settled = false;
    const applying = t.services.receipts.onReceipt(receipt(newer.smsc)).finally(() => { settled = true; });
    // The receipt waits for the holder's lock (the one-receipt way, after the batch skipped the row); settled
    // early means it took another message, which the expectations below catch.
    await lock.untilBlocked(() => settled);
    expect(settled).toBe(false);
    expect(await status(a.apiKey, older.id)).toBe('sent');

    lock.release();
    await applying;
    expect(await status(a.apiKey, newer.id)).toBe('delivered');
    expect(await status(a.apiKey, older.id)).toBe('sent');
  } finally {
    await lock.end();
  }
}, 30_000);
