import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';

// One bounded batch per statement, each committing on its own: a batch locks at most `limit` rows for the few
// milliseconds its UPDATE or DELETE takes. SKIP LOCKED steps round rows that a sender, the carrier link or another
// worker's retention run holds, so nothing waits; a skipped row is taken on the next run. These are cross-tenant
// maintenance statements (no account id), deliberately: retention is the same for every account.

interface Batch { cutoff: Date; now: Date; limit: number }

async function count(db: Executor, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await rows<{ n: unknown }>(db, query);
  return Number(row?.n ?? 0);
}

/**
 * Outbound content: the rendered body (merge data included), the opt-out link code, which dies with it, and the
 * URLs behind its short links (they can carry the customer's own tokens), which then answer 404. Click counts stay.
 * The body's copy in message_search (GET /messages' text filter) goes with it.
 */
export function clearMessageBodies(db: Executor, b: Batch): Promise<number> {
  return count(db, sql`
    with batch as (
      select id from messages
      where body is not null and created_at < ${b.cutoff.toISOString()}::timestamptz
      order by created_at limit ${b.limit}
      for update skip locked
    ), done as (
      update messages m set body = null, optout_code = null, content_deleted_at = ${b.now.toISOString()}::timestamptz
      from batch where m.id = batch.id
      returning m.id, m.account_id
    ), links as (
      update message_links l set url = null
      from done where l.account_id = done.account_id and l.message_id = done.id and l.url is not null
    ), search as (
      update message_search s set body = null
      from done where s.message_id = done.id and s.body is not null
    )
    select count(*) as n from done`);
}

export function clearInboundBodies(db: Executor, b: Batch): Promise<number> {
  return count(db, sql`
    with batch as (
      select id from inbound_messages
      where body is not null and received_at < ${b.cutoff.toISOString()}::timestamptz
      order by received_at limit ${b.limit}
      for update skip locked
    ), done as (
      update inbound_messages i set body = null, content_deleted_at = ${b.now.toISOString()}::timestamptz
      from batch where i.id = batch.id
      returning 1
    )
    select count(*) as n from done`);
}

/**
 * A campaign's template goes once its newest message is past retention (a named campaign keeps collecting
 * messages, so its own created_at is not enough). The newest message is found through messages_campaign_idx
 * (campaign_id, id): ids are v7, so the highest id is the latest message, one index probe per campaign.
 */
export function clearCampaignBodies(db: Executor, b: Batch): Promise<number> {
  const cutoff = sql`${b.cutoff.toISOString()}::timestamptz`;
  return count(db, sql`
    with batch as (
      select c.id from campaigns c
      where c.message_body is not null and c.created_at < ${cutoff}
        and coalesce((select m.created_at from messages m where m.campaign_id = c.id order by m.id desc limit 1),
                     c.created_at) < ${cutoff}
      order by c.created_at limit ${b.limit}
      for update of c skip locked
    ), done as (
      update campaigns c set message_body = null from batch where c.id = batch.id
      returning 1
    )
    select count(*) as n from done`);
}

/**
 * Webhook deliveries carry the message body in their fixed bytes, which cannot be nulled (the column is the exact
 * payload), so old finished deliveries are deleted with their attempts. A pending one (redelivery asked for) is
 * left to finish. `id < floor` walks the primary key in time order (v7 ids).
 */
export function deleteWebhookDeliveries(db: Executor, b: Batch & { idFloor: string }): Promise<number> {
  return count(db, sql`
    with batch as (
      select id from webhook_deliveries
      where id < ${b.idFloor}::uuid and created_at < ${b.cutoff.toISOString()}::timestamptz and status <> 'pending'
      order by id limit ${b.limit}
      for update skip locked
    ), attempts as (
      delete from webhook_attempts a using batch where a.delivery_id = batch.id
    ), done as (
      delete from webhook_deliveries d using batch where d.id = batch.id
      returning 1
    )
    select count(*) as n from done`);
}

/** Parts of a multi-part inbound message whose siblings never came: content too, and long abandoned. */
export function deleteInboundFragments(db: Executor, b: Batch): Promise<number> {
  return count(db, sql`
    with batch as (
      select from_number, to_number, ref, seq from inbound_fragments
      where received_at < ${b.cutoff.toISOString()}::timestamptz
      limit ${b.limit}
      for update skip locked
    ), done as (
      delete from inbound_fragments f using batch
      where f.from_number = batch.from_number and f.to_number = batch.to_number and f.ref = batch.ref and f.seq = batch.seq
      returning 1
    )
    select count(*) as n from done`);
}
