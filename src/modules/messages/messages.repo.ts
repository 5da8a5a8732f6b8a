import { and, asc, eq, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { messages } from '../../platform/db/schema/index.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { Actor } from '../../platform/actor.ts';
import { dailyCapAllows, dailyCapCount } from './daily-cap.ts';
import type { NewLink } from '../links/shorten.ts';

export type MessageRow = typeof messages.$inferSelect;


export interface BatchItem {
  id: string;
  recipient: string;
  country: string;
  sender: string;
  body: string;
  parts: number;
  optoutCode: string | null;
  metadata: Record<string, string> | null;
  /** send_at, or the end of the recipient's quiet hours: the message waits as `scheduled` until then; null sends now */
  scheduledAt: string | null;
  /** short links replacing the body's URLs (link tracking), written after the messages; null without */
  links?: NewLink[] | null;
}

export interface BatchSend {
  campaignId: string;
  campaignName: string | null;
  template: string;
  items: BatchItem[];
  totalCredits: number;
  partsPerMessage: number;
  today: string;
}

/**
 * All or nothing: one conditional debit for the whole batch, then one set-based insert of every message from a
 * JSON array (a single parameter, whatever the batch size). Run inside a transaction by the caller.
 */
/** Messages per INSERT statement of a batch. */
const INSERT_CHUNK = 5000;

export async function insertBatch(db: Executor, actor: Actor, b: BatchSend): Promise<{ creditsAfter: number | null; creditsBefore: number; dailyExceeded: boolean }> {
  const a = actor.accountId;
  const count = b.items.length;
  const today = sql`${b.today}::date`;
  const n = sql`${count}::int`;
  const [debit] = await rows<{ credits: number }>(db, sql`
    update accounts set credits = credits - ${b.totalCredits}, ${dailyCapCount('accounts', n, today)}
    where id = ${a} and credits >= ${b.totalCredits} and ${dailyCapAllows('accounts', n, today)}
    returning credits`);
  if (!debit) {
    const [acc] = await rows<{ credits: number; daily_exceeded: boolean }>(db, sql`
      select credits, not ${dailyCapAllows('accounts', n, today)} as daily_exceeded from accounts where id = ${a}`);
    return { creditsAfter: null, creditsBefore: acc?.credits ?? 0, dailyExceeded: acc?.daily_exceeded ?? false };
  }
  if (b.campaignName === null) {
    await db.execute(sql`
      insert into campaigns (id, account_id, name, message_body, recipient_count, parts_per_message, total_credits)
      values (${b.campaignId}, ${a}, null, ${b.template}, ${count}, ${b.partsPerMessage}, ${b.totalCredits})`);
  } else {
    const [camp] = await rows<{ id: string }>(db, sql`
      insert into campaigns (id, account_id, name, message_body, recipient_count, parts_per_message, total_credits)
      values (${b.campaignId}, ${a}, ${b.campaignName}, ${b.template}, ${count}, ${b.partsPerMessage}, ${b.totalCredits})
      on conflict (account_id, name) where name is not null do update
        set recipient_count = campaigns.recipient_count + excluded.recipient_count,
            total_credits = campaigns.total_credits + excluded.total_credits
      returning id`);
    b.campaignId = camp!.id;
  }
  // One statement per INSERT_CHUNK messages (a batch of the document's 1,000 is one; a contact list may be more),
  // all in the caller's transaction: still one debit and all or nothing.
  for (let start = 0; start < count; start += INSERT_CHUNK) {
    await db.execute(sql`
      insert into messages (id, account_id, campaign_id, recipient, country, sender, body, parts, credits, optout_code, metadata, status, scheduled_at)
      select r.id, ${a}, ${b.campaignId}, r.recipient, r.country, r.sender, r.body, r.parts, r.parts, r.optout_code, r.metadata,
             case when r.scheduled_at is null then 'queued' else 'scheduled' end, r.scheduled_at
      from jsonb_to_recordset(${JSON.stringify(b.items.slice(start, start + INSERT_CHUNK).map((i) => ({
        id: i.id, recipient: i.recipient, country: i.country, sender: i.sender, body: i.body, parts: i.parts,
        optout_code: i.optoutCode, metadata: i.metadata, scheduled_at: i.scheduledAt,
      })))}::jsonb) as r(id uuid, recipient text, country text, sender text, body text, parts int, optout_code text, metadata jsonb, scheduled_at timestamptz)`);
  }
  if (count > 0) {
    await db.execute(sql`
      insert into credit_ledger (id, account_id, kind, delta, balance_after, campaign_id)
      values (${uuidv7()}, ${a}, 'send', ${-b.totalCredits}, ${debit.credits}, ${b.campaignId})`);
  }
  return { creditsAfter: debit.credits, creditsBefore: debit.credits + b.totalCredits, dailyExceeded: false };
}

export async function findOptedOut(db: Executor, accountId: string, numbers: string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const found = await rows<{ number: string }>(db, sql`
    select number from optouts where account_id = ${accountId}
      and number in (select jsonb_array_elements_text(${JSON.stringify(numbers)}::jsonb))`);
  return new Set(found.map((r) => r.number));
}

export async function findMessage(db: Executor, accountId: string, id: string): Promise<MessageRow | null> {
  const [row] = await db.select().from(messages).where(and(eq(messages.accountId, accountId), eq(messages.id, id)));
  return row ?? null;
}

/**
 * The message a `/send` with this Idempotency-Key created, while the key is kept (24 hours): the libraries fetch a
 * message "by id or idempotency key". Only a committed send (its stored 200 response) names a message.
 */
export async function findMessageIdByIdempotencyKey(db: Executor, accountId: string, key: string): Promise<string | null> {
  const [row] = await rows<{ message_id: string | null }>(db, sql`
    select (response_body::jsonb ->> 'message_id') as message_id from idempotency_keys
    where account_id = ${accountId} and key = ${key} and route = 'send' and response_status = 200`);
  return row?.message_id ?? null;
}

export async function listCampaignMessages(
  db: Executor, accountId: string, campaignId: string, limit: number, offset: number,
): Promise<MessageRow[]> {
  return db.select().from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.campaignId, campaignId)))
    .orderBy(asc(messages.id)).limit(limit).offset(offset);
}
