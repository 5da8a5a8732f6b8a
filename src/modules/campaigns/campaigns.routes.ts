import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, IdParams, nullable, Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import type { CampaignService } from './campaigns.service.ts';
import { MESSAGE_EXAMPLES, MessageItem } from '../messages/messages.schemas.ts';

const CampaignFields = {
  id: described(Uuid, 'The campaign\'s id'),
  name: nullable(Type.String(), 'Its name (the campaign field of the sends), or null for an unnamed batch'),
  message_body: nullable(Type.String(), 'The message text (the batch\'s template, before merging); null past retention'),
  status: Type.String({ description: 'sending while any message is queued; scheduled while none is queued but some wait for send_at; then completed' }),
  recipient_count: Type.Integer({ description: 'Messages in the campaign, over all its sends' }),
  parts_per_message: Type.Integer({ description: 'Parts of its first message (merged texts may differ)' }),
  total_credits: Type.Integer({ description: 'Credits its messages took' }),
  created_at: described(Timestamp, 'When its first send was accepted'),
};
const count = (what: string) => Type.Integer({ description: `Messages ${what}` });
const Stats = Type.Object({
  total: count('in all'), queued: count('waiting for the carrier'), sent: count('taken by the carrier, no receipt yet'),
  delivered: count('delivered'), failed: count('that failed'), scheduled: count('waiting for their send_at'), cancelled: count('cancelled'),
}, { description: 'Its messages by status' });
export const CampaignResponse = Type.Object({
  campaign: Type.Object({
    ...CampaignFields,
    scheduled_at: Type.Union([Timestamp, Type.Null()], { description: 'The earliest send_at of its messages still scheduled; null when none is' }),
  }, { description: 'The campaign' }),
  stats: Stats,
  messages: Type.Array(MessageItem, { description: 'A page of its messages, in send order' }),
  limit: Type.Integer({ description: 'The page size used' }),
  offset: Type.Integer({ description: 'The offset used' }),
}, { description: 'The campaign, its counts and a page of its messages' });

export const CampaignPage = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Messages per page, 1 to 1,000 (default 100)' }),
  offset: Offset,
});

export const CampaignListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size, 1 to 100 (default 25)' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Campaigns to skip (default 0)' }),
});

export const CampaignList = Type.Object({
  campaigns: Type.Array(Type.Object({ ...CampaignFields, stats: Stats }), { description: 'The page, newest first' }),
  limit: Type.Integer({ description: 'The page size used' }),
  offset: Type.Integer({ description: 'The offset used' }),
}, { description: 'A page of campaigns' });

const STATS_EXAMPLE = { total: 2, queued: 0, sent: 0, delivered: 2, failed: 0, scheduled: 0, cancelled: 0 };
const CAMPAIGN_EXAMPLE = {
  id: EX.campaign, name: 'Manly reopening', message_body: 'Hi {{name}}, our Manly clinic reopens Monday. Reply STOP to opt out.', status: 'completed',
  recipient_count: 2, parts_per_message: 1, total_credits: 2, created_at: EX.sent,
};

/** The services these routes call, and nothing else. */
export type CampaignRoutesDeps = { campaigns: CampaignService };

export const campaignRoutes: FastifyPluginAsyncTypebox<CampaignRoutesDeps> = async (app, { campaigns }) => {
  app.get('/campaigns', {
    config: { contract: { response: { campaigns: [{ ...CAMPAIGN_EXAMPLE, stats: STATS_EXAMPLE }], limit: 25, offset: 0 } }, scope: 'read' },
    schema: {
      tags: ['Tracking'], summary: 'The account\'s campaigns, newest first, with their counts',
      description: 'Pages through the account\'s campaigns (every batch, and every campaign name used on /send), newest first, each with its messages counted by status. Needs the read scope.',
      querystring: CampaignListQuery,
      response: { 200: CampaignList },
    },
  }, async (request) => campaigns.list(request.actor, request.query));

  app.get('/campaign/:id', {
    config: {
      contract: {
        errors: ['not_found'],
        response: { campaign: { ...CAMPAIGN_EXAMPLE, scheduled_at: null }, stats: STATS_EXAMPLE, messages: [MESSAGE_EXAMPLES.item], limit: 100, offset: 0 },
      },
      scope: 'read',
    },
    schema: {
      tags: ['Tracking'], summary: 'A campaign with its statistics and messages',
      description: 'One campaign: its totals, its messages counted by status, and a page of the messages themselves. Another account\'s campaign answers 404. Needs the read scope.',
      params: IdParams, querystring: CampaignPage, response: { 200: CampaignResponse },
    },
  }, async (request) => campaigns.get(request.actor, request.params.id, request.query));

  app.delete('/campaign/:id/schedule', {
    config: { contract: { errors: ['not_found'], response: { ok: true, cancelled: 2, credits_refunded: 2, credits_remaining: 1000 } }, scope: 'send' },
    schema: {
      tags: ['Sending'], summary: 'Cancel every still-scheduled message of a campaign (refunded)', params: IdParams,
      description: 'Cancels every message of the campaign that still waits for its send_at and returns their credits to the balance, in one transaction; messages already queued or sent are left alone. Idempotent: a second call cancels nothing and answers cancelled 0. Another account\'s campaign answers 404. Needs the send scope.',
      response: {
        200: Type.Object({
          ok: Type.Boolean({ description: 'true: done' }),
          cancelled: Type.Integer({ description: 'Messages cancelled now' }),
          credits_refunded: Type.Integer({ description: 'Credits returned to the balance' }),
          credits_remaining: Type.Integer({ description: 'The balance after the refund' }),
        }, { description: 'The scheduled messages are cancelled' }),
      },
    },
  }, async (request) => campaigns.cancelSchedule(request.actor, request.params.id));
};
