import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rows, type Database } from '../../src/platform/db/client.ts';
import { isDatabaseUnavailable } from '../../src/platform/db/sql-state.ts';
import { createScratchDatabase, testDatabaseUrl } from '../support/scratch-db.ts';
import { pollUntil } from '../support/poll.ts';

// The pool and the LISTEN connection when the server ends their sessions (pg_terminate_backend: 57P01, what a
// failover, a pooler restart or an idle-connection reaper does). A broken client must never surface as an
// unhandled 'error' event (vitest fails the file on one, as node would exit), never be handed out again, and
// never keep its pool slot: the pool has ONE connection here, so a leaked or reused broken client makes the next
// statement hang or fail.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let database: Database;
let admin: pg.Client;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  database = await openDatabase({ databaseUrl: scratch.url, dataDir: '', poolSize: 1 });
  admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await database.close();
  await scratch.drop();
});

const terminate = (pid: number) => admin.query('select pg_terminate_backend($1)', [pid]);
const backendPid = async (exec: Parameters<typeof rows>[0]) => (await rows<{ pid: number }>(exec, sql`select pg_backend_pid() as pid`))[0]!.pid;
const works = async () => (await rows<{ one: number }>(database.db, sql`select 1 as one`))[0]!.one;

describe('a pool connection reset while checked out', () => {
  it('between the statements of a transaction: the transaction fails as unavailable, the pool carries on', async () => {
    let pid = 0;
    let lost = false;
    const failed = await database.db.transaction(async (tx) => {
      pid = await backendPid(tx);
      await terminate(pid);
      // The client is idle in its checkout when the FATAL arrives: that used to be an unhandled 'error' event.
      await pollUntil(async () => (await admin.query('select count(*)::int as n from pg_stat_activity where pid = $1', [pid])).rows[0].n, (n) => n === 0, 'the backend gone');
      lost = true;
      await tx.execute(sql`select 1`);
    }).then(() => null, (err: unknown) => err);
    expect(lost).toBe(true);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    expect(await works()).toBe(1);
    expect(await backendPid(database.db)).not.toBe(pid);
  });

  it('during a statement: the statement fails as unavailable and the next one runs on a new connection', async () => {
    const failed = await database.db.transaction(async (tx) => {
      const pid = await backendPid(tx);
      // Drizzle's queries start when awaited or then'd: then() starts this one now, and catches its failure at
      // once (it can arrive before terminate() answers, and a rejection nobody holds yet counts as unhandled).
      const sleeping = tx.execute(sql`select pg_sleep(30)`).then(() => null, (err: unknown) => err);
      await pollUntil(async () => (await admin.query(`select count(*)::int as n from pg_stat_activity where pid = $1 and state = 'active'`, [pid])).rows[0].n, (n) => n === 1, 'the statement running');
      await terminate(pid);
      const err = await sleeping;
      if (err) throw err;
    }).then(() => null, (err: unknown) => err);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    expect(await works()).toBe(1);
  });

  it('outside a transaction (the pool\'s own query): fails as unavailable, then works', async () => {
    const pid = await backendPid(database.db);
    const sleeping = database.db.execute(sql`select pg_sleep(30)`).then(() => null, (err: unknown) => err);
    await pollUntil(async () => (await admin.query(`select count(*)::int as n from pg_stat_activity where pid = $1 and state = 'active'`, [pid])).rows[0].n, (n) => n === 1, 'the statement running');
    await terminate(pid);
    expect(isDatabaseUnavailable(await sleeping)).toBe(true);
    expect(await works()).toBe(1);
  });
});

describe('the LISTEN connection reset', () => {
  it('listens again, wakes its subscribers once to catch up, and hears notifications again', async () => {
    const heard: string[] = [];
    const unlisten = await database.listen('tasman_reset_test', (payload) => heard.push(payload));
    const session = async () => (await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = $1 and application_name like 'tasman listen %reset_test%'`, [new URL(scratch.url).pathname.slice(1)])).rows[0]?.pid ?? 0;
    const first = await session();
    expect(first).toBeGreaterThan(0);
    await database.notify('tasman_reset_test', 'before');
    await pollUntil(async () => heard, (h) => h.includes('before'), 'the first notification');

    await terminate(first);
    // The catch-up wake: whatever was notified while nobody listened is gone, so subscribers look now.
    await pollUntil(async () => heard, (h) => h.includes(''), 'the catch-up wake after listening again', 15_000);
    const second = await session();
    expect(second).toBeGreaterThan(0);
    expect(second).not.toBe(first);
    await database.notify('tasman_reset_test', 'after');
    await pollUntil(async () => heard, (h) => h.includes('after'), 'a notification after listening again');
    await unlisten();
  });
});
