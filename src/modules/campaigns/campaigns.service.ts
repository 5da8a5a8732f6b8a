import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { listCampaignMessages } from '../messages/messages.repo.ts';
import { toMessageView } from '../messages/message-view.ts';
import { campaignStats, findCampaign } from './campaigns.repo.ts';
import { cancelScheduled } from '../scheduling/schedule.repo.ts';
import { balanceOf } from '../credits/ledger.repo.ts';

export function createCampaignService(deps: { db: Db }) {
  async function get(actor: Actor, id: string, page: { limit: number; offset: number }) {
    const campaign = await findCampaign(deps.db, actor.accountId, id);
    if (!campaign) throw notFound('Campaign');
    const [{ scheduled_at: scheduledAt, ...stats }, items] = await Promise.all([
      campaignStats(deps.db, actor.accountId, id),
      listCampaignMessages(deps.db, actor.accountId, id, page.limit, page.offset),
    ]);
    return {
      campaign: {
        id: campaign.id,
        name: campaign.name,
        message_body: campaign.messageBody,
        // Derived, never stored: a campaign is sending while any of its messages waits for the carrier.
        // `scheduled` (an addition) while nothing is queued but some still wait for their send_at.
        status: stats.queued > 0 ? 'sending' : stats.scheduled > 0 ? 'scheduled' : 'completed',
        recipient_count: campaign.recipientCount,
        parts_per_message: campaign.partsPerMessage,
        total_credits: campaign.totalCredits,
        created_at: campaign.createdAt.toISOString(),
        scheduled_at: scheduledAt === null ? null : new Date(scheduledAt).toISOString(),
      },
      stats,
      messages: items.map((m) => toMessageView(m).message),
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

  return { get, cancelSchedule };
}

export type CampaignService = ReturnType<typeof createCampaignService>;
