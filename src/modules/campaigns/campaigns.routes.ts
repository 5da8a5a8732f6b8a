import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { MessageItem } from '../messages/messages.schemas.ts';

const CampaignFields = {
  id: Uuid,
  name: Type.Union([Type.String(), Type.Null()]),
  message_body: Type.Union([Type.String(), Type.Null()]),
  status: Type.String({ description: 'sending while any message is queued; scheduled while none is queued but some wait for send_at; then completed' }),
  recipient_count: Type.Integer(),
  parts_per_message: Type.Integer(),
  total_credits: Type.Integer(),
  created_at: Timestamp,
};
const Stats = Type.Object({
  total: Type.Integer(), queued: Type.Integer(), sent: Type.Integer(), delivered: Type.Integer(), failed: Type.Integer(),
  scheduled: Type.Integer(), cancelled: Type.Integer(),
});
export const CampaignResponse = Type.Object({
  campaign: Type.Object({
    ...CampaignFields,
    scheduled_at: Type.Union([Timestamp, Type.Null()], { description: 'The earliest send_at of its messages still scheduled; null when none is' }),
  }),
  stats: Stats,
  messages: Type.Array(MessageItem),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const CampaignPage = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  offset: Offset,
});

const CampaignList = Type.Object({
  campaigns: Type.Array(Type.Object({ ...CampaignFields, stats: Stats })),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const campaignRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/campaigns', {
    config: { contract: {}, scope: 'read' },
    schema: { tags: ['Tracking'], summary: 'The account\'s campaigns, newest first, with their counts', querystring: Type.Object({
      limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }), offset: Type.Integer({ minimum: 0, default: 0 }),
    }), response: { 200: CampaignList } },
  }, async (request) => services.campaigns.list(request.actor, request.query));

  app.get('/campaign/:id', {
    config: { contract: { errors: ['not_found'] }, scope: 'read' },
    schema: { tags: ['Tracking'], summary: 'A campaign with its statistics and messages', params: IdParams, querystring: CampaignPage, response: { 200: CampaignResponse } },
  }, async (request) => services.campaigns.get(request.actor, request.params.id, request.query));

  app.delete('/campaign/:id/schedule', {
    config: { contract: { errors: ['not_found'] }, scope: 'send' },
    schema: {
      tags: ['Sending'], summary: 'Cancel every still-scheduled message of a campaign (refunded)', params: IdParams,
      response: { 200: Type.Object({ ok: Type.Boolean(), cancelled: Type.Integer(), credits_refunded: Type.Integer(), credits_remaining: Type.Integer() }) },
    },
  }, async (request) => services.campaigns.cancelSchedule(request.actor, request.params.id));
};
