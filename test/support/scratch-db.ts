import { randomBytes } from 'node:crypto';
import pg from 'pg';

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
