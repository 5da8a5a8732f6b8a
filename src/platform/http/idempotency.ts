import { createHash } from 'node:crypto';
import { Type } from 'typebox';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rows, type Db, type Tx } from '../db/client.ts';
import { renewEvery, startHeartbeat } from '../jobs/heartbeat.ts';
import { AppError } from '../errors.ts';
import { MAX_BODY_DEPTH } from './input-guard.ts';

const TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim is a lease, renewed every third of it while its request runs (the heartbeat of platform/jobs): a key
 * whose process died is retaken within this long, however slow a live request is.
 */
const LEASE_MS = 15_000;

/** The header of every route that spends or moves credits. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({
    minLength: 1, maxLength: 255,
    description: 'Any unique string per intended send or transfer (a UUID is good): a retry with the same key and body within 24 hours answers the first result and sends nothing; the same key with another body answers 422 idempotency_mismatch, and while the first is still running 409 idempotency_in_flight',
  })),
});

export type Within<T> = (tx: Tx, result: T) => Promise<void>;

/**
 * JSON with sorted keys, so the same body in another key order is the same request. Bodies reach here after the
 * input guard capped their depth; the bound here keeps the recursion safe for any other caller.
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_BODY_DEPTH) throw new AppError('validation_failed', `The body nests deeper than ${MAX_BODY_DEPTH} levels`);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface KeyRow { route: string; request_hash: string; response_status: number | null; response_body: string | null; stale: boolean; expired: boolean }

// A claim without a response whose lease ran out (rows from before leases: created more than a lease ago).
const STALE = sql`response_status is null and coalesce(lease_until, created_at + interval '15 seconds') < now()`;

/**
 * Idempotency-Key for the send endpoints. The key is claimed in its own short commit (so a concurrent duplicate
 * sees it and gets 409), and the response is stored in the same transaction as the send itself: a replay can
 * only ever return a response whose messages and debit were committed.
 */
export function createIdempotency(db: Db, options: { leaseMs?: number } = {}) {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const lease = sql`now() + ${`${leaseMs} milliseconds`}::interval`;

  async function claim(accountId: string, key: string, route: string, hash: string): Promise<boolean> {
    const claimed = await rows<{ key: string }>(db, sql`
      insert into idempotency_keys (account_id, key, route, request_hash, expires_at, lease_until)
      values (${accountId}, ${key}, ${route}, ${hash}, ${new Date(Date.now() + TTL_MS)}, ${lease})
      on conflict (account_id, key) do nothing returning key`);
    return claimed.length > 0;
  }

  async function retake(accountId: string, key: string, hash: string): Promise<boolean> {
    const taken = await rows<{ key: string }>(db, sql`
      update idempotency_keys set created_at = now(), route = route, request_hash = ${hash},
        expires_at = ${new Date(Date.now() + TTL_MS)}, response_status = null, response_body = null, lease_until = ${lease}
      where account_id = ${accountId} and key = ${key} and (expires_at < now() or (${STALE}))
      returning key`);
    return taken.length > 0;
  }

  /** Renews the claim's lease while its request runs; the returned function stops it. */
  function heartbeat(accountId: string, key: string): () => void {
    return startHeartbeat({
      everyMs: renewEvery(leaseMs),
      beat: () => db.execute(sql`
        update idempotency_keys set lease_until = ${lease}
        where account_id = ${accountId} and key = ${key} and response_status is null`),
      // A missed beat only shortens the lease; the next one (or the response) follows.
    });
  }

  /**
   * The key's rules without HTTP (the MCP tools use them too): the first request with a key runs `fn`, which
   * stores its result through `within` in its own transaction; a repeat answers that result with `replayed`.
   * `route` names what the key was used for (a key of one operation never replays another's), `body` is hashed.
   */
  async function runKeyed<T>(
    accountId: string, key: string, route: string, body: unknown, fn: (within: Within<T>) => Promise<T>,
  ): Promise<{ result: T; status: number; replayed: boolean }> {
    const hash = createHash('sha256').update(`${route}\n${canonicalJson(body)}`).digest('hex');

    let owned = await claim(accountId, key, route, hash);
    if (!owned) {
      const [row] = await rows<KeyRow>(db, sql`
        select route, request_hash, response_status, response_body, expires_at < now() as expired,
               (${STALE}) as stale
        from idempotency_keys where account_id = ${accountId} and key = ${key}`);
      if (!row || row.expired || row.stale) {
        owned = row ? await retake(accountId, key, hash) : await claim(accountId, key, route, hash);
        if (!owned) throw new AppError('idempotency_in_flight', 'A request with this Idempotency-Key is still being processed');
      } else if (row.route !== route || row.request_hash !== hash) {
        throw new AppError('idempotency_mismatch', 'This Idempotency-Key was used with a different request');
      } else if (row.response_status === null) {
        throw new AppError('idempotency_in_flight', 'A request with this Idempotency-Key is still being processed');
      } else {
        return { result: JSON.parse(row.response_body!) as T, status: row.response_status, replayed: true };
      }
    }

    const stopBeat = heartbeat(accountId, key);
    try {
      const result = await fn(async (tx, value) => {
        await tx.execute(sql`
          update idempotency_keys set response_status = 200, response_body = ${JSON.stringify(value)}
          where account_id = ${accountId} and key = ${key}`);
      });
      return { result, status: 200, replayed: false };
    } catch (err) {
      // Nothing was committed: free the key so the client can retry once it has fixed the cause.
      await db.execute(sql`delete from idempotency_keys where account_id = ${accountId} and key = ${key} and response_status is null`);
      throw err;
    } finally {
      stopBeat();
    }
  }

  /** The Idempotency-Key header of a request, if it has one, around a route's handler. */
  async function run<T>(
    request: FastifyRequest, reply: FastifyReply, route: string, fn: (within?: Within<T>) => Promise<T>,
  ): Promise<T> {
    const header = request.headers['idempotency-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) return fn(undefined);
    const answer = await runKeyed(request.actor.accountId, key, route, request.body, fn);
    if (answer.replayed) {
      reply.header('idempotent-replayed', 'true');
      reply.status(answer.status);
    }
    return answer.result;
  }

  async function purgeExpired(limit = 1000): Promise<number> {
    const done = await rows<{ key: string }>(db, sql`
      delete from idempotency_keys where ctid in (
        select ctid from idempotency_keys where expires_at < now() limit ${limit}) returning key`);
    return done.length;
  }

  return { run, runKeyed, purgeExpired };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
