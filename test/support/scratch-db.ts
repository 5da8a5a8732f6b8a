import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/client.ts';

/** The run's database: the global setup starts the embedded server unless TEST_DATABASE_URL is given. */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is unset: run the API tests through vitest (its global setup starts PostgreSQL)');
  return url;
}

/**
 * A PostgreSQL database of its own, made on the test server, for tests that run background workers:
 * a dispatcher claims every queued message in its database, so sharing one would let it send other test files'
 * messages (and theirs ours). Dropped with drop().
 */
export async function createScratchDatabase(prefix = 'tasman_scratch'): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(testDatabaseUrl());
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * A scratch database opened (migrated) for the whole test file, closed and dropped after it; the returned function
 * gives the open Database inside the tests.
 */
export function scratchDatabaseForFile(poolSize = 1): () => Database {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    database = await openDatabase({ databaseUrl: scratch.url, dataDir: '', poolSize });
  });
  afterAll(async () => {
    await database.close();
    await scratch.drop();
  });
  return () => database;
}
