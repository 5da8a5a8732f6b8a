import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../src/platform/db/embedded/server.ts';
import { isDatabaseUnavailable } from '../../src/platform/db/sql-state.ts';
import { createScratchDatabase } from '../support/scratch-db.ts';
import { pollUntil } from '../support/poll.ts';

// A host list of two real PostgreSQL servers: the run's server (A) and a second one started here (B). A standby is
// played by a server whose transactions default to read-only (what `pg_is_in_recovery() or transaction_read_only`
// sees of a real standby; bench/failover.ts runs real ones under pg_auto_failover). Tasman must write only to the
// writable one, move when it moves (a demotion ends the old primary's sessions; a server that turns read-only
// under live sessions answers 25006), move its LISTEN too, and fail in between only as "unavailable" (503).
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let second: EmbeddedServer;
let secondDir: string;
let database: Database;
const clients: pg.Client[] = [];
let onA: pg.Client; // the scratch database on A
let onB: pg.Client; // the same database name on B
let bAdmin: pg.Client; // B's maintenance database

const connect = async (url: string) => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  clients.push(c);
  return c;
};
/** `url`'s server, with the database and password of `like`. */
const at = (url: string, like: URL) => { const u = new URL(url); u.pathname = like.pathname; u.password = like.password; return u.toString(); };
const socketOf = (url: string) => new URL(url).searchParams.get('host')!;

beforeAll(async () => {
  scratch = await createScratchDatabase('tasman_failover');
  secondDir = mkdtempSync(path.join(tmpdir(), 'tasman-failover-b-'));
  second = await startEmbeddedPostgres({ dataDir: secondDir });
  const a = new URL(scratch.url);
  const name = a.pathname.slice(1);
  // One host list needs one user, password and database name on both servers.
  bAdmin = await connect(second.url);
  await bAdmin.query(`alter role postgres password '${decodeURIComponent(a.password).replace(/'/g, "''")}'`);
  await bAdmin.query(`create database "${name}"`);
  onA = await connect(scratch.url);
  onB = await connect(at(second.url, a));
  for (const c of [onA, onB]) await c.query('create table failover_probe (n int not null)');
  // B starts as the standby.
  await bAdmin.query('alter system set default_transaction_read_only = on');
  await bAdmin.query('select pg_reload_conf()');
}, 120_000);
afterAll(async () => {
  await database?.close();
  for (const c of clients) await c.end().catch(() => {});
  await second?.stop();
  rmSync(secondDir, { recursive: true, force: true });
  await scratch.drop();
}, 60_000);

const probeRows = async (c: pg.Client) => (await c.query<{ n: number }>('select n from failover_probe order by n')).rows.map((r) => r.n);

/** Inserts n until it succeeds; every failure meanwhile must be "unavailable" (the API's 503). */
async function insertWhenWritable(n: number, failures: unknown[]): Promise<void> {
  await pollUntil(async () => database.db.execute(sql`insert into failover_probe (n) values (${n})`).then(() => true, (err: unknown) => { failures.push(err); return false; }),
    (done) => done, `insert ${n} accepted`, 30_000, 100);
}

describe('a primary and a standby in DATABASE_URL', () => {
  it('writes to the writable one, follows it when it moves, and never writes to the one that turned standby', async () => {
    const a = new URL(scratch.url);
    const hosts = [socketOf(scratch.url), socketOf(second.url)].map((s) => `${encodeURIComponent(s)}:5432`).join(',');
    database = await openDatabase({ databaseUrl: `postgres://postgres:${a.password}@${hosts}${a.pathname}`, dataDir: '', poolSize: 3 });
    const heard: string[] = [];
    await database.listen('tasman_failover_test', (p) => heard.push(p));
    const failures: unknown[] = [];

    await insertWhenWritable(1, failures);
    expect(await probeRows(onA)).toEqual([1]);
    expect(failures).toEqual([]);

    // Failover to B: A is demoted (its sessions end, and it comes back read-only), B is promoted.
    await onA.query(`alter database "${a.pathname.slice(1)}" set default_transaction_read_only = on`);
    await onA.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    await bAdmin.query('alter system reset default_transaction_read_only');
    await bAdmin.query('select pg_reload_conf()');
    await insertWhenWritable(2, failures);
    expect(await probeRows(onB)).toEqual([2]);
    expect(await probeRows(onA)).toEqual([1]);
    // The LISTEN connection moved with it: a NOTIFY (sent through the pool, so on B) is heard.
    await pollUntil(async () => { await database.notify('tasman_failover_test', 'on B').catch(() => {}); return heard; }, (h) => h.includes('on B'), 'a notification on B', 20_000, 250);

    // Back to A, with B turning read-only under live sessions: statements there fail with 25006, never a write.
    await onA.query(`alter database "${a.pathname.slice(1)}" reset default_transaction_read_only`);
    await bAdmin.query('alter system set default_transaction_read_only = on');
    await bAdmin.query('select pg_reload_conf()');
    // pg_reload_conf() only signals the postmaster, which passes the reload on to the live sessions a moment later:
    // wait until a session of B has taken it, or the pool's next statement there may still write.
    await pollUntil(async () => (await bAdmin.query<{ v: string }>('select current_setting(\'default_transaction_read_only\') as v')).rows[0]!.v,
      (v) => v === 'on', 'B read-only', 10_000, 20);
    await insertWhenWritable(3, failures);
    expect(await probeRows(onA)).toEqual([1, 3]);
    expect(await probeRows(onB)).toEqual([2]);
    await pollUntil(async () => { await database.notify('tasman_failover_test', 'on A').catch(() => {}); return heard; }, (h) => h.includes('on A'), 'a notification on A', 20_000, 250);

    // Whatever failed in between failed as "the database is unavailable": the API's 503, never a 500.
    expect(failures.filter((err) => !isDatabaseUnavailable(err)).map((err) => String(err))).toEqual([]);
  });
});
