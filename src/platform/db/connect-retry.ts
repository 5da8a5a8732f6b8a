import type pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { StartupError } from '../startup-error.ts';
import { splitHosts } from './hosts.ts';

// Errors that may pass when the server comes up: refused, unreachable, starting, shutting down, too many clients.
const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOENT', '57P03', '57P01', '53300', 'NO_WRITER']);

/** Where DATABASE_URL points (each host of a list), without its password, for messages. */
export function describeUrl(databaseUrl: string): string {
  let hosts = [databaseUrl];
  try { hosts = splitHosts(databaseUrl); } catch { /* described as one */ }
  if (hosts.length > 1) return hosts.map(describeUrl).join(', ');
  try {
    const u = new URL(databaseUrl);
    return `${u.hostname || u.searchParams.get('host') || 'localhost'}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * The pool's first connection, retried with back-off while the server is down or starting (up to `timeoutMs`), so
 * Tasman and its database may start together. A missing database or refused credentials fail at once: waiting
 * would not fix them. Every failure is one StartupError line naming DATABASE_URL.
 */
export async function firstConnection(pool: pg.Pool, databaseUrl: string, timeoutMs: number): Promise<pg.PoolClient> {
  const deadline = Date.now() + timeoutMs;
  let pause = 250;
  for (;;) {
    try {
      return await pool.connect();
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      const where = describeUrl(databaseUrl);
      if (code === '3D000') throw new StartupError(`the database in DATABASE_URL (${where}) does not exist: create it (createdb) or correct DATABASE_URL`);
      if (code === '28P01' || code === '28000') throw new StartupError(`the database refused DATABASE_URL's credentials (${where}): ${(err as Error).message}`);
      if (!TRANSIENT.has(code) || Date.now() + pause > deadline) {
        const waited = timeoutMs > 0 ? ` after trying for ${Math.round(timeoutMs / 1000)} s (DATABASE_CONNECT_TIMEOUT)` : '';
        throw new StartupError(`cannot connect to the database in DATABASE_URL (${where})${waited}: ${(err as Error).message || code}`);
      }
      await sleep(pause);
      pause = Math.min(pause * 2, 5_000);
    }
  }
}
