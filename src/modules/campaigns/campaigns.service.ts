import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { listCampaignMessages } from '../messages/messages.repo.ts';
import { toMessageView } from '../messages/message-view.ts';
import { campaignStats, findCampaign } from './campaigns.repo.ts';

export function createCampaignService(deps: { db: Db }) {
  async function get(actor: Actor, id: string, page: { limit: number; offset: number }) {
    const campaign = await findCampaign(deps.db, actor.accountId, id);
    if (!campaign) throw notFound('Campaign');
    const [stats, items] = await Promise.all([
      campaignStats(deps.db, actor.accountId, id),
      listCampaignMessages(deps.db, actor.accountId, id, page.limit, page.offset),
    ]);
    return {
      campaign: {
        id: campaign.id,
        name: campaign.name,
        message_body: campaign.messageBody,
        // Derived, never stored: a campaign is sending while any of its messages waits for the carrier.
        status: stats.queued > 0 ? 'sending' : 'completed',
        recipient_count: campaign.recipientCount,
        parts_per_message: campaign.partsPerMessage,
        total_credits: campaign.totalCredits,
        created_at: campaign.createdAt.toISOString(),
      },
      stats,
      messages: items.map((m) => toMessageView(m).message),
      limit: page.limit,
      offset: page.offset,
    };
  }
  return { get };
}

export type CampaignService = ReturnType<typeof createCampaignService>;
