// The /send group commit keeps more than one statement in flight, so one statement waiting on an account's row
// lock (a long /send-batch or credit move of that account, here a transaction holding it) does not hold up every
// other account's sends in the process. One statement in flight was cheaper per request (decision 0003)
// but failed this.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, createAccount, mobile } from '../support/factories.ts';
import { testDatabaseUrl } from '../support/scratch-db.ts';
import { pollUntil } from '../support/poll.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

describe('/send while another account\'s statement waits on a lock', () => {
  it('answers the other account at once, and the waiting send once the lock is gone', async () => {
    const locked = await createAccount(t.app, { credits: 10 });
    const free = await createAccount(t.app, { credits: 10 });
    // Both keys known first, so neither send waits for its key look-up.
    for (const a of [locked, free]) expect((await call(t.app, a.apiKey, 'GET', '/balance')).status).toBe(200);
    const holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from accounts where id = $1 for update', [locked.accountId]);
      let waitingDone = false;
      const waiting = call(t.app, locked.apiKey, 'POST', '/send', { to: mobile(), message: 'waits for the lock' })
        .finally(() => { waitingDone = true; });
      // The send's statement is queued behind the row lock (PostgreSQL says so) before the other account sends.
      await pollUntil(async () => (await holder.query(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n as number,
      (n) => n > 0, 'the send waiting on the lock', 30_000);
      expect(waitingDone).toBe(false);
      const other = await Promise.race([
        call(t.app, free.apiKey, 'POST', '/send', { to: mobile(), message: 'goes at once' }),
        new Promise((resolve) => setTimeout(() => resolve('held up behind the lock'), 3000)),
      ]);
      expect(other).toMatchObject({ status: 200 });
      expect(waitingDone).toBe(false);
      await holder.query('commit');
      expect((await waiting).status).toBe(200);
    } finally {
      // Whatever happened, the lock goes, so the waiting statement and the app can finish.
      await holder.query('rollback').catch(() => {});
      await holder.end();
    }
  });
});
