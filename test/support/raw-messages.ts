import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../src/platform/db/client.ts';

// Rows written straight into a scratch database, for the tests of the workers' statements and their plans
// (queue claims, prepared statements, plans made while a table was small), and the server's own count of what
// a statement read.

/**
 * `count` messages of one status for a new account (or `accountId`), oldest first: created and due from an hour
 * ago, a millisecond apart; scheduled ones fall due then too; sent ones were sent an hour ago with SMSC ids
 * `${smscPrefix}-${i}`. Returns their ids in that order.
 */
export async function insertMessages(db: Executor, o: {
  status: 'queued' | 'scheduled' | 'sent'; count: number; smscPrefix?: string; accountId?: string;
}): Promise<string[]> {
  const account = o.accountId ?? randomUUID();
  if (!o.accountId) await db.execute(sql`insert into accounts (id, business_name) values (${account}, 'raw')`);
  const inserted = await rows<{ id: string }>(db, sql`
    insert into messages (id, account_id, recipient, country, sender, body, parts, credits, status, created_at, next_attempt_at, scheduled_at, sent_at, smsc_message_id)
    select gen_random_uuid(), ${account}, '+61400000000', 'AU', 'Raw', 'x', 1, 1, ${o.status},
           now() - interval '1 hour' + i * interval '1 millisecond', now() - interval '1 hour' + i * interval '1 millisecond',
           case when ${o.status} = 'scheduled' then now() - interval '1 hour' + i * interval '1 millisecond' end,
           case when ${o.status} = 'sent' then now() - interval '1 hour' end,
           case when ${o.status} = 'sent' then ${o.smscPrefix ?? randomUUID()} || '-' || i end
    from generate_series(0, ${o.count - 1}) as i
    returning id`);
  return inserted.map((r) => r.id);
}

/**
 * What this transaction has read from `relation` so far, by the server's own count (no flush inside one): index
 * entries for an index, rows read by sequential scans for a table.
 */
export async function tuplesRead(tx: Executor, relation: string): Promise<number> {
  const [row] = await rows<{ n: string }>(tx, sql`select pg_stat_get_xact_tuples_returned(${relation}::regclass) as n`);
  return Number(row!.n);
}
