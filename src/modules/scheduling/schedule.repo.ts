import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { claimRowsInIndexOrder } from '../../platform/db/queue-claim.ts';
import { changeCredits } from '../credits/ledger.repo.ts';

/**
 * Releases up to `limit` scheduled messages that have fallen due: `scheduled` → `queued`, due at once. Exactly
 * once on any number of processes: SKIP LOCKED lets concurrent releasers pass each other's rows, and the status
 * condition means a committed release can never match again. Returns the ids it released. Planned in index order
 * whatever the statistics say (platform/db/queue-claim.ts): a never-analysed table of 100,000 due messages made
 * each batch a bitmap scan and sort of all of them.
 */
export async function releaseDue(db: Executor, limit: number): Promise<string[]> {
  const released = await claimRowsInIndexOrder<{ id: string }>(db, releaseStatement(limit));
  return released.map((r) => r.id);
}

/** releaseDue's statement (bench/claims.ts also runs it without the hint, as the baseline). */
export function releaseStatement(limit: number): SQL {
  return sql`
    with due as (
      select id from messages
      where status = 'scheduled' and scheduled_at <= now()
      order by scheduled_at
      limit ${limit}
      for update skip locked
    )
    update messages m set status = 'queued', next_attempt_at = now()
    from due where m.id = due.id and m.status = 'scheduled'
    returning m.id`;
}

export interface Cancelled {
  id: string;
  credits: number;
}

/**
 * Cancels still-scheduled messages of an account (those `which` selects) and refunds each with its own ledger
 * row, in one transaction. `reason` is kept as the message's error_code (`cancelled` or `opted_out`).
 */
export async function cancelScheduled(
  db: Executor, accountId: string, which: { messageId?: string; campaignId?: string; recipient?: string }, reason: 'cancelled' | 'opted_out',
): Promise<{ cancelled: Cancelled[]; creditsAfter: number | null }> {
  return db.transaction(async (tx) => {
    const cancelled = await rows<Cancelled & { campaign_id: string | null }>(tx, sql`
      update messages set status = 'cancelled', error_code = ${reason}
      where account_id = ${accountId} and status = 'scheduled'
        ${which.messageId ? sql`and id = ${which.messageId}` : sql``}
        ${which.campaignId ? sql`and campaign_id = ${which.campaignId}` : sql``}
        ${which.recipient ? sql`and recipient = ${which.recipient}` : sql``}
      returning id, credits, campaign_id`);
    let creditsAfter: number | null = null;
    for (const m of cancelled) {
      creditsAfter = await changeCredits(tx, { accountId, delta: m.credits, kind: 'refund', messageId: m.id, campaignId: m.campaign_id });
    }
    return { cancelled: cancelled.map((m) => ({ id: m.id, credits: m.credits })), creditsAfter };
  });
}

/** Whether the account has this message at all (for telling 404 from 409 after a cancel matched nothing). */
export async function messageStatus(db: Executor, accountId: string, id: string): Promise<string | null> {
  const [row] = await rows<{ status: string }>(db, sql`select status from messages where account_id = ${accountId} and id = ${id}`);
  return row?.status ?? null;
}
