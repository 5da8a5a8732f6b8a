import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EventEmitter } from 'node:events';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { startEmbeddedPostgres } from './embedded/server.ts';
import { firstConnection } from './connect-retry.ts';
import { channelToken, LISTENER_ANY, LISTENER_PREFIX } from './listener-name.ts';
import { createListener } from './listener.ts';
import { ResilientPool } from './pool.ts';
import { splitHosts } from './hosts.ts';
import { createWriterChoice } from './writer.ts';

// No relational schema (`db.query.<table>`, unused): drizzle built a query builder for every table in it each time
// a transaction began, about 1% of the CPU per message.
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything a repo function can run a query on: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'postgres';
  /** The PostgreSQL server Tasman manages in DATA_DIR (DATABASE_URL unset), or one the operator runs. */
  embedded: boolean;
  /** Subscribe to a notification channel (LISTEN). */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Wake listeners in this process at once and, on PostgreSQL, in every other process. */
  notify(channel: string, payload?: string): Promise<void>;
  /**
   * Whether a Tasman process other than this one LISTENs on the channel in this database (true when that cannot be
   * told): a NOTIFY nobody else hears is a wasted statement, since this process wakes its own listeners directly.
   */
  othersListen(channel: string): Promise<boolean>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
// An arbitrary constant: every Tasman process takes this advisory lock before migrating, so two starting at once
// do not race to create the same tables.
const MIGRATION_LOCK = 7_360_412_990;

/** Runs a raw query and returns its rows; both drivers answer with `{ rows }`. */
export async function rows<T>(exec: Executor, query: SQL): Promise<T[]> {
  const result = (await exec.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Whether every migration this build carries is applied (drizzle records each one's journal `when`). */
export async function migrationsApplied(db: Db): Promise<boolean> {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> };
  const latest = Math.max(...journal.entries.map((e) => e.when));
  const [row] = await rows<{ latest: string | null }>(db, sql`select max(created_at)::text as latest from drizzle.__drizzle_migrations`);
  return Number(row?.latest ?? 0) >= latest;
}

interface SessionInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  _: { session: { prepareQuery(q: { sql: string; params: unknown[] }, fields: undefined, name: string, arrayMode: boolean): { execute(): Promise<unknown> } } };
}

const statementNames = new Map<string, string>();

/**
 * Like `rows`, as a named prepared statement: PostgreSQL parses and plans it once per connection instead of on
 * every call. For the hot paths (auth, send) whose SQL text has a handful of shapes; never for SQL whose text
 * varies with the data (IN lists), which would fill every connection's statement cache.
 */
export async function preparedRows<T>(exec: Executor, query: SQL): Promise<T[]> {
  const internals = exec as unknown as SessionInternals;
  const built = internals.dialect.sqlToQuery(query);
  let name = statementNames.get(built.sql);
  if (!name) {
    name = `tsm_${createHash('sha1').update(built.sql).digest('hex').slice(0, 20)}`;
    statementNames.set(built.sql, name);
  }
  const result = await internals._.session.prepareQuery(built, undefined, name, false).execute() as { rows: T[] };
  return result.rows;
}

export interface OpenOptions {
  /** null: the embedded server in DATA_DIR. */
  databaseUrl: string | null;
  dataDir: string;
  poolSize?: number;
  /** The account the embedded server runs as when Tasman runs as root (TASMAN_POSTGRES_USER). */
  postgresUser?: string;
  /** How long to retry a server that does not answer yet (DATABASE_CONNECT_TIMEOUT); default 0, no retry. */
  connectTimeoutMs?: number;
  /** Where a lost LISTEN connection and a move of the writable host are reported. */
  logger?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl !== null) return connect(options.databaseUrl, false, options);
  const server = await startEmbeddedPostgres({ dataDir: options.dataDir, serverUser: options.postgresUser });
  try {
    const database = await connect(server.url, true, { ...options, connectTimeoutMs: 0 });
    return { ...database, async close() { await database.close(); await server.stop(); } };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

async function connect(databaseUrl: string, embedded: boolean, options: OpenOptions): Promise<Database> {
  const { poolSize = 20, connectTimeoutMs = 0 } = options;
  const local = new EventEmitter();
  local.setMaxListeners(0);
  // A primary and its standbys (DATABASE_URL with several hosts, or DATABASE_HOSTS): connect to the writable one.
  const hosts = splitHosts(databaseUrl);
  const writer = hosts.length > 1 ? createWriterChoice(hosts, { logger: options.logger }) : null;
  // Survives connections being reset (pool.ts): a broken client is destroyed, never reused, never a crash.
  const pool = new ResilientPool({ connectionString: hosts[0], max: poolSize }, writer);
  const db = drizzlePg(pool) as unknown as Db;
  const lockClient = await firstConnection(pool, databaseUrl, connectTimeoutMs).catch(async (err: unknown) => {
    await pool.end();
    throw err;
  });
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(lockClient), { migrationsFolder });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    lockClient.release();
  }

  // Re-listens after a reset and wakes every channel once then (listener.ts).
  const listener = createListener({
    client: async () => {
      await writer?.ready();
      return new pg.Client({ connectionString: writer?.url() ?? databaseUrl });
    },
    onLost: () => writer?.invalidate(),
    onNotify: (channel, payload) => local.emit(channel, payload),
    logger: options.logger,
  });
  writer?.onMoved(() => listener.renew());

  return {
    db,
    kind: 'postgres',
    embedded,
    async listen(channel, onNotify) {
      await listener.add(channel);
      local.on(channel, onNotify);
      return async () => void local.off(channel, onNotify);
    },
    async notify(channel, payload = '') {
      await db.execute(sql`select pg_notify(${channel}, ${payload})`);
    },
    async othersListen(channel) {
      // application_name is visible for every session, whatever role runs it. The channel's full name is matched
      // too: processes of earlier releases named their channels in full.
      const [row] = await rows<{ n: number }>(db, sql`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> ${listener.pid()}
          and (application_name = ${LISTENER_ANY}
            or position(${` ${channelToken(channel)} `} in ' ' || substr(application_name, ${LISTENER_PREFIX.length + 1}) || ' ') > 0
            or position(${` ${channel} `} in ' ' || substr(application_name, ${LISTENER_PREFIX.length + 1}) || ' ') > 0)
          and application_name like ${`${LISTENER_PREFIX}%`}`);
      return (row?.n ?? 1) > 0;
    },
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}
