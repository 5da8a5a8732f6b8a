import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import type { RouteContract } from '../../platform/http/route-registry.ts';
import {
  DeliveriesQuery, DeliveryList, Redelivered, RotatedSecret, SaveEndpointRequest, SavedDeliveryEndpoint,
  SavedInboundEndpoint, WebhookConfig,
} from './webhooks.schemas.ts';

const tags = ['Webhooks'];
// A URL the guard refuses (url-guard.ts, webhooks.service.ts URL_ERROR); a rotation before the URL was set.
const saveContract: RouteContract = {
  sample: { body: { url: 'https://example.com/tasman' } },
  errors: ['invalid_webhook_url', 'webhook_url_https_required', 'webhook_url_not_public'],
};
const rotateContract: RouteContract = { errors: ['webhook_not_configured'] };

// Every route acts on the caller's own account, sub-accounts included (docs/api-contract.md).
export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { webhooks } = services;

  app.get('/webhooks', {
    config: { contract: {}, scope: 'read' },
    schema: { tags, summary: 'Webhook configuration', response: { 200: WebhookConfig } },
  }, async (request) => webhooks.get(request.actor));

  app.put('/webhooks/delivery', {
    config: { contract: saveContract, scope: 'manage' },
    schema: { tags, summary: 'Create or update the delivery-receipt webhook', body: SaveEndpointRequest, response: { 200: SavedDeliveryEndpoint } },
  }, async (request) => ({ delivery_receipt: await webhooks.save(request.actor, 'delivery_receipt', request.body) }));

  app.put('/webhooks/inbound', {
    config: { contract: saveContract, scope: 'manage' },
    schema: { tags, summary: 'Create or update the inbound-message webhook', body: SaveEndpointRequest, response: { 200: SavedInboundEndpoint } },
  }, async (request) => ({ inbound: await webhooks.save(request.actor, 'inbound', request.body) }));

  app.post('/webhooks/delivery', {
    config: { contract: rotateContract, scope: 'manage' },
    schema: { tags, summary: 'Rotate the delivery-receipt signing secret (shown once)', response: { 200: RotatedSecret } },
  }, async (request) => webhooks.rotateSecret(request.actor, 'delivery_receipt'));

  app.post('/webhooks/inbound', {
    config: { contract: rotateContract, scope: 'manage' },
    schema: { tags, summary: 'Rotate the inbound signing secret (shown once)', response: { 200: RotatedSecret } },
  }, async (request) => webhooks.rotateSecret(request.actor, 'inbound'));

  app.get('/webhooks/deliveries', {
    config: { contract: {}, scope: 'read' },
    schema: { tags, summary: 'Recent webhook deliveries with every attempt, newest first', querystring: DeliveriesQuery, response: { 200: DeliveryList } },
  }, async (request) => webhooks.deliveries(request.actor, request.query));

  app.post('/webhooks/deliveries/:id/redeliver', {
    config: { contract: { errors: ['not_found', 'delivery_in_progress'] }, scope: 'manage' },
    schema: { tags, summary: 'Queue a delivery again with a fresh set of attempts', params: IdParams, response: { 200: Redelivered } },
  }, async (request) => webhooks.redeliver(request.actor, request.params.id));
};
