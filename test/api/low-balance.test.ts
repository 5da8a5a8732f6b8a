// The low-balance email (settings.low_balance_threshold): a debit that takes the balance from at-or-above the
// threshold to below it emails the owner once, through the outbox, received by a real SMTP server on loopback;
// further debits below it send nothing; after a top-up to the threshold or more, the next crossing emails again,
// whichever path debits (a send, a batch, the operator). An account without a threshold never gets one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.ts';
import { admin, call, mobile } from '../support/factories.ts';
import { pollUntil } from '../support/poll.ts';
import { startSmtpInbox } from '../support/smtp.ts';
import { rows } from '../../src/platform/db/client.ts';

let smtp: Awaited<ReturnType<typeof startSmtpInbox>>;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  // The job runs with the workers, on a database of their own.
  t = await createTestApp({ SMTP_URL: smtp.url }, { workers: true });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function account(credits: number) {
  const owner = `owner-${randomUUID()}@clinic.test`;
  const res = await admin(t.app, 'POST', '/admin/accounts', { business_name: 'Harbour Clinic', email: owner, credits });
  expect(res.status).toBe(201);
  return { id: res.body.account_id as string, key: res.body.api_key as string, owner };
}

const mailsTo = (to: string) => smtp.inbox.filter((m) => m.to === to && /credits left/.test(m.text));
const waitForMails = (to: string, n: number) => pollUntil(async () => mailsTo(to), (m) => m.length >= n, `${n} low-balance mail(s) to ${to}`, 60_000);

/** Crossings recorded for the account: waiting for the job, or already turned into mail (the job does both in one transaction). */
async function crossings(accountId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(t.services.db, sql`
    select (select count(*) from low_balance_notices where account_id = ${accountId})
         + (select count(*) from email_outbox where account_id = ${accountId} and kind = 'low_balance') as n`);
  return Number(row!.n);
}

const send = async (key: string) => {
  const res = await call(t.app, key, 'POST', '/send', { to: mobile(), message: 'Your appointment is tomorrow at 9' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.credits_remaining as number;
};

it('emails the owner once when a debit crosses the threshold, again only after a top-up, on every debit path', async () => {
  const a = await account(10);
  const set = await call(t.app, a.key, 'PUT', '/settings', { low_balance_threshold: 8 });
  expect(set.status).toBe(200);
  expect((set.body.settings as { low_balance_threshold: number }).low_balance_threshold).toBe(8);
  expect(((await call(t.app, a.key, 'GET', '/settings')).body.settings as { low_balance_threshold: number }).low_balance_threshold).toBe(8);

  // 10 → 9 → 8: at the threshold is not below it.
  expect(await send(a.key)).toBe(9);
  expect(await send(a.key)).toBe(8);
  expect(await crossings(a.id)).toBe(0);
  // 8 → 7 crosses: one email, to the owner.
  expect(await send(a.key)).toBe(7);
  expect(await crossings(a.id)).toBe(1); // written with the debit: there as soon as the send answered
  const [first] = await waitForMails(a.owner, 1);
  expect(first!.text).toContain('Harbour Clinic has 7 credits left, below the 8 set in its settings');
  // Further debits below it record nothing.
  expect(await send(a.key)).toBe(6);
  expect(await crossings(a.id)).toBe(1);

  // The operator tops it up to 16; a batch of nine takes it to 7: the second crossing.
  expect((await admin(t.app, 'POST', `/admin/accounts/${a.id}/credits`, { amount: 10 })).status).toBe(200);
  const batch = await call(t.app, a.key, 'POST', '/send-batch', {
    recipients: Array.from({ length: 9 }, () => mobile()), message: 'The clinic is closed on Monday',
  });
  expect(batch.status, JSON.stringify(batch.body)).toBe(200);
  expect(batch.body.credits_remaining).toBe(7);
  expect(await crossings(a.id)).toBe(2);
  await waitForMails(a.owner, 2);

  // A top-up to exactly the threshold re-arms it too; the operator's removal of credits is a debit like a send.
  expect((await admin(t.app, 'POST', `/admin/accounts/${a.id}/credits`, { amount: 1 })).status).toBe(200);
  expect((await admin(t.app, 'POST', `/admin/accounts/${a.id}/credits`, { amount: -3 })).status).toBe(200);
  expect(await crossings(a.id)).toBe(3);
  const all = await waitForMails(a.owner, 3);
  expect(all[2]!.text).toContain('has 5 credits left');

  // null turns it off.
  expect((await call(t.app, a.key, 'PUT', '/settings', { low_balance_threshold: null })).status).toBe(200);
  expect((await admin(t.app, 'POST', `/admin/accounts/${a.id}/credits`, { amount: 10 })).status).toBe(200);
  expect(await send(a.key)).toBe(14);
  expect((await admin(t.app, 'POST', `/admin/accounts/${a.id}/credits`, { amount: -14 })).status).toBe(200);
  expect(await crossings(a.id)).toBe(3);
});

it('an account without a threshold records nothing, and a threshold of 0 or a fraction is refused', async () => {
  const a = await account(3);
  for (let i = 0; i < 3; i++) await send(a.key);
  expect(await crossings(a.id)).toBe(0);
  for (const bad of [0, 2.5, '5']) {
    expect((await call(t.app, a.key, 'PUT', '/settings', { low_balance_threshold: bad })).status).toBe(400);
  }
});
