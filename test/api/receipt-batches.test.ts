// Receipt batches do not queue behind one another (issue 10 item 9): a receipt is committed, and so can be
// acknowledged, while an earlier receipt's batch is still waiting. With one batch at a time, every receipt that
// arrived during a commit waited for that whole batch before its own began, and since an SMSC keeps only a window of
// receipts unacknowledged, that wait capped the receipt rate (docs/performance.md).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Receipt } from '../../src/carrier/carrier.ts';
import { rows } from '../../src/platform/db/client.ts';
import { recordSent } from '../../src/modules/dispatch/dispatch.repo.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

const receipt = (id: string): Receipt => ({ smscMessageId: id, state: 'delivered', final: true, errorCode: '000', doneAt: new Date() });

/** A message accepted by the API and recorded as sent under a fresh SMSC id, as the dispatcher would. */
async function sentMessage(apiKey: string) {
  const sent = await call(t.app, apiKey, 'POST', '/send', { to: mobile(), message: 'Hello' });
  const id = sent.body.message_id as string;
  const smsc = randomUUID().replace(/-/g, '').slice(0, 16);
  expect((await recordSent(t.services.db, [{ id, claim: null, smscMessageId: smsc, sentAt: new Date() }])).has(id)).toBe(true);
  return { id, smsc };
}

const status = async (apiKey: string, id: string) =>
  ((await call(t.app, apiKey, 'GET', `/message/${id}`)).body.message as { status: string }).status;

it("commits a receipt while another receipt's batch is still waiting for its message's row lock", async () => {
  const a = await createAccount(t.app);
  const held = await sentMessage(a.apiKey);
  const free = await sentMessage(a.apiKey);

  // Another transaction holds the first message's row, so the batch carrying its receipt waits on the lock.
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let holder!: number;
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => { locked = resolve; });
  const holding = t.services.db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from messages where id = ${held.id} for update`);
    holder = (await rows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`))[0]!.pid;
    locked();
    await released;
  });
  // Cleanup only, never reached when the behaviour holds: without it a failing build would hang on the lock.
  const guard = setTimeout(release, 20_000);
  try {
    await isLocked;
    let heldSettled = false;
    const heldReceipt = t.services.receipts.onReceipt(receipt(held.smsc)).finally(() => { heldSettled = true; });
    // Until that batch is really blocked behind the holder (its statement is on the server, waiting).
    for (;;) {
      const blocked = await rows<{ pid: number }>(t.services.db, sql`
        select pid from pg_stat_activity where ${holder}::int = any(pg_blocking_pids(pid))`);
      if (blocked.length > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }

    await t.services.receipts.onReceipt(receipt(free.smsc));
    expect(heldSettled).toBe(false);
    expect(await status(a.apiKey, free.id)).toBe('delivered');
    expect(await status(a.apiKey, held.id)).toBe('sent');

    release();
    await heldReceipt;
    expect(await status(a.apiKey, held.id)).toBe('delivered');
  } finally {
    clearTimeout(guard);
    release();
    await holding;
  }
}, 30_000);

it('skips a message whose row another transaction holds without taking an older message with the same id for it', async () => {
  const a = await createAccount(t.app);
  // The SMSC reused an id: the newer message holds it, the older one (already sent, no receipt yet) must not take it.
  const smsc = randomUUID().replace(/-/g, '').slice(0, 16);
  const older = (await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'Hello' })).body.message_id as string;
  const newer = (await call(t.app, a.apiKey, 'POST', '/send', { to: mobile(), message: 'Hello' })).body.message_id as string;
  expect((await recordSent(t.services.db, [{ id: older, claim: null, smscMessageId: smsc, sentAt: new Date(Date.now() - 60_000) }])).has(older)).toBe(true);
  expect((await recordSent(t.services.db, [{ id: newer, claim: null, smscMessageId: smsc, sentAt: new Date() }])).has(newer)).toBe(true);

  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let holder!: number;
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => { locked = resolve; });
  const holding = t.services.db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from messages where id = ${newer} for update`);
    holder = (await rows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`))[0]!.pid;
    locked();
    await released;
  });
  const guard = setTimeout(release, 20_000);
  try {
    await isLocked;
    let settled = false;
    const applying = t.services.receipts.onReceipt(receipt(smsc)).finally(() => { settled = true; });
    // The receipt waits for the holder's lock (the one-receipt way, after the batch skipped the row).
    for (;;) {
      const blocked = await rows<{ pid: number }>(t.services.db, sql`
        select pid from pg_stat_activity where ${holder}::int = any(pg_blocking_pids(pid))`);
      if (blocked.length > 0 || settled) break; // settled: it took another message (the failure below)
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(settled).toBe(false);
    expect(await status(a.apiKey, older)).toBe('sent');

    release();
    await applying;
    expect(await status(a.apiKey, newer)).toBe('delivered');
    expect(await status(a.apiKey, older)).toBe('sent');
  } finally {
    clearTimeout(guard);
    release();
    await holding;
  }
}, 30_000);
