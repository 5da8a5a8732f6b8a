import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { listCampaignMessages } from '../messages/messages.service.ts';
import { toMessageView } from '../messages/message-view.ts';
import { campaignStats, findCampaign, listCampaigns, type CampaignRow } from './campaigns.repo.ts';
import { cancelScheduled } from '../scheduling/scheduling.service.ts';
import { balanceOf } from '../credits/credits.service.ts';

const summary = (campaign: CampaignRow) => ({
  id: campaign.id,
  name: campaign.name,
  message_body: campaign.messageBody,
  recipient_count: campaign.recipientCount,
  parts_per_message: campaign.partsPerMessage,
  total_credits: campaign.totalCredits,
  created_at: campaign.createdAt.toISOString(),
});

const statusOf = (stats: { queued: number; scheduled: number }) =>
  stats.queued > 0 ? 'sending' : stats.scheduled > 0 ? 'scheduled' : 'completed';

export function createCampaignService(deps: { db: Db }) {
  /** GET /campaigns (an addition for the dashboard): newest first, each with its live counts. */
  async function list(actor: Actor, page: { limit: number; offset: number }) {
    const found = await listCampaigns(deps.db, actor.accountId, page.limit, page.offset);
    const stats = await Promise.all(found.map((c) => campaignStats(deps.db, actor.accountId, c.id)));
    return {
      campaigns: found.map((c, i) => ({ ...summary(c), status: statusOf(stats[i]!), stats: stats[i]! })),
      limit: page.limit,
      offset: page.offset,
    };
  }

  async function get(actor: Actor, id: string, page: { limit: number; offset: number }) {
    const campaign = await findCampaign(deps.db, actor.accountId, id);
    if (!campaign) throw notFound('Campaign');
    const [{ scheduled_at: scheduledAt, ...stats }, items] = await Promise.all([
      campaignStats(deps.db, actor.accountId, id),
      listCampaignMessages(deps.db, actor.accountId, id, page.limit, page.offset),
    ]);
    return {
      campaign: {
        ...summary(campaign),
        // Derived, never stored: a campaign is sending while any of its messages waits for the carrier.
        // `scheduled` (an addition) while nothing is queued but some still wait for their send_at.
        status: statusOf(stats),
        scheduled_at: scheduledAt === null ? null : new Date(scheduledAt).toISOString(),
      },
      stats,
      messages: items.map((m) => toMessageView(m, []).message),
      limit: page.limit,
      offset: page.offset,
    };
  }
  /** DELETE /campaign/{id}/schedule: every message of the campaign still scheduled is cancelled and refunded. */
  async function cancelSchedule(actor: Actor, id: string) {
    const campaign = await findCampaign(deps.db, actor.accountId, id);
    if (!campaign) throw notFound('Campaign');
    const { cancelled, creditsAfter } = await cancelScheduled(deps.db, actor.accountId, { campaignId: id }, 'cancelled');
    return {
      ok: true, cancelled: cancelled.length, credits_refunded: cancelled.reduce((sum, m) => sum + m.credits, 0),
      credits_remaining: creditsAfter ?? (await balanceOf(deps.db, actor.accountId)) ?? 0,
    };
  }

  return { get, list, cancelSchedule };
}

export type CampaignService = ReturnType<typeof createCampaignService>;
