import { and, desc, eq, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { campaigns } from '../../platform/db/schema/index.ts';

export type CampaignRow = typeof campaigns.$inferSelect;

export interface CampaignStats { total: number; queued: number; sent: number; delivered: number; failed: number; scheduled: number; cancelled: number }

export async function findCampaign(db: Executor, accountId: string, id: string): Promise<CampaignRow | null> {
  const [row] = await db.select().from(campaigns).where(and(eq(campaigns.accountId, accountId), eq(campaigns.id, id)));
  return row ?? null;
}

/** `sent` counts messages accepted by the SMSC that have no final outcome yet (the status, not the report counter). */
export async function campaignStats(db: Executor, accountId: string, id: string): Promise<CampaignStats & { scheduled_at: Date | string | null }> {
  const [row] = await rows<CampaignStats & { scheduled_at: Date | string | null }>(db, sql`
    select count(*)::int as total,
           count(*) filter (where status = 'queued')::int as queued,
           count(*) filter (where status = 'sent')::int as sent,
           count(*) filter (where status = 'delivered')::int as delivered,
           count(*) filter (where status = 'failed')::int as failed,
           count(*) filter (where status = 'scheduled')::int as scheduled,
           count(*) filter (where status = 'cancelled')::int as cancelled,
           min(scheduled_at) filter (where status = 'scheduled') as scheduled_at
    from messages where account_id = ${accountId} and campaign_id = ${id}`);
  return row!;
}

/** The account's campaigns, newest first. */
export async function listCampaigns(db: Executor, accountId: string, limit: number, offset: number): Promise<CampaignRow[]> {
  return db.select().from(campaigns).where(eq(campaigns.accountId, accountId))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id)).limit(limit).offset(offset);
}
