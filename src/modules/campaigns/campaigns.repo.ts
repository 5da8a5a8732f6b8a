import { and, eq, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { campaigns } from '../../platform/db/schema/index.ts';

export type CampaignRow = typeof campaigns.$inferSelect;

export interface CampaignStats { total: number; queued: number; sent: number; delivered: number; failed: number }

export async function findCampaign(db: Executor, accountId: string, id: string): Promise<CampaignRow | null> {
  const [row] = await db.select().from(campaigns).where(and(eq(campaigns.accountId, accountId), eq(campaigns.id, id)));
  return row ?? null;
}

/** `sent` counts messages accepted by the SMSC that have no final outcome yet (the status, not the report counter). */
export async function campaignStats(db: Executor, accountId: string, id: string): Promise<CampaignStats> {
  const [row] = await rows<CampaignStats>(db, sql`
    select count(*)::int as total,
           count(*) filter (where status = 'queued')::int as queued,
           count(*) filter (where status = 'sent')::int as sent,
           count(*) filter (where status = 'delivered')::int as delivered,
           count(*) filter (where status = 'failed')::int as failed
    from messages where account_id = ${accountId} and campaign_id = ${id}`);
  return row!;
}
