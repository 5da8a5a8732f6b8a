import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, IdParams } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import {
  DeliveriesQuery, DeliveryList, Redelivered, RotatedSecret, SaveEndpointRequest, SavedDeliveryEndpoint,
  SavedInboundEndpoint, WebhookConfig,
} from './webhooks.schemas.ts';

const tags = ['Webhooks'];

// Every route acts on the caller's own account, sub-accounts included (CONTRACT.md).
export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { webhooks } = services;

  app.get('/webhooks', {
    config: { scope: 'read' },
    schema: { tags, summary: 'Webhook configuration', response: { 200: WebhookConfig, ...errors(401) } },
  }, async (request) => webhooks.get(request.actor));

  app.put('/webhooks/delivery', {
    config: { scope: 'manage' },
    schema: { tags, summary: 'Create or update the delivery-receipt webhook', body: SaveEndpointRequest, response: { 200: SavedDeliveryEndpoint, ...errors(400, 401) } },
  }, async (request) => ({ delivery_receipt: await webhooks.save(request.actor, 'delivery_receipt', request.body) }));

  app.put('/webhooks/inbound', {
    config: { scope: 'manage' },
    schema: { tags, summary: 'Create or update the inbound-message webhook', body: SaveEndpointRequest, response: { 200: SavedInboundEndpoint, ...errors(400, 401) } },
  }, async (request) => ({ inbound: await webhooks.save(request.actor, 'inbound', request.body) }));

  app.post('/webhooks/delivery', {
    config: { scope: 'manage' },
    schema: { tags, summary: 'Rotate the delivery-receipt signing secret (shown once)', response: { 200: RotatedSecret, ...errors(401, 404) } },
  }, async (request) => webhooks.rotateSecret(request.actor, 'delivery_receipt'));

  app.post('/webhooks/inbound', {
    config: { scope: 'manage' },
    schema: { tags, summary: 'Rotate the inbound signing secret (shown once)', response: { 200: RotatedSecret, ...errors(401, 404) } },
  }, async (request) => webhooks.rotateSecret(request.actor, 'inbound'));

  app.get('/webhooks/deliveries', {
    config: { scope: 'read' },
    schema: { tags, summary: 'Recent webhook deliveries with every attempt, newest first', querystring: DeliveriesQuery, response: { 200: DeliveryList, ...errors(400, 401) } },
  }, async (request) => webhooks.deliveries(request.actor, request.query));

  app.post('/webhooks/deliveries/:id/redeliver', {
    config: { scope: 'manage' },
    schema: { tags, summary: 'Queue a delivery again with a fresh set of attempts', params: IdParams, response: { 200: Redelivered, ...errors(400, 401, 404, 409) } },
  }, async (request) => webhooks.redeliver(request.actor, request.params.id));
};
