import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../platform/http/schemas.ts';
import type { WebhookService } from './webhooks.service.ts';
import type { RouteContract } from '../../platform/http/route-registry.ts';
import {
  DeliveriesQuery, DeliveryList, Redelivered, RotatedSecret, SaveEndpointRequest, SavedDeliveryEndpoint,
  SavedInboundEndpoint, WEBHOOK_EXAMPLES, WebhookConfig,
} from './webhooks.schemas.ts';

const tags = ['Webhooks'];
// A URL the guard refuses (url-guard.ts, webhooks.service.ts URL_ERROR); a rotation before the URL was set.
const saveContract = (url: string, events: string[], response: object): RouteContract => ({
  sample: { body: { url, enabled: true, events } },
  response,
  errors: ['invalid_webhook_url', 'webhook_url_https_required', 'webhook_url_not_public'],
});
const rotateContract: RouteContract = { errors: ['webhook_not_configured'], response: WEBHOOK_EXAMPLES.rotated };
const SAVE = 'Creates the endpoint, or changes its URL and options, and enables it again if the service had switched it off. On creation it gets a signing secret, answered once in `secret`. The URL must be https and resolve to public addresses only (400 otherwise); it is checked again on every delivery. Needs the manage scope. Idempotent: saving the same body again changes nothing but updated_at.';
const ROTATE = 'Makes a new signing secret and answers it once. Deliveries are signed with it at once in X-…-Signature, while webhook-signature also carries a signature with the previous secret for 24 hours, so receivers can switch without a gap. 404 webhook_not_configured before the endpoint exists. Needs the manage scope. Not idempotent: each call makes a new secret.';

/** The services these routes call, and nothing else. */
export type WebhookRoutesDeps = { webhooks: WebhookService };

// Every route acts on the caller's own account, sub-accounts included (docs/api-contract.md).
export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesDeps> = async (app, { webhooks }) => {
  app.get('/webhooks', {
    config: { contract: { response: WEBHOOK_EXAMPLES.config }, scope: 'read' },
    schema: {
      tags, summary: 'Webhook configuration',
      description: 'The account\'s two webhook endpoints: where delivery receipts (and click events, if chosen) go, and where inbound messages go; null until set. Secrets are never shown here. Needs the read scope.',
      response: { 200: WebhookConfig },
    },
  }, async (request) => webhooks.get(request.actor));

  app.put('/webhooks/delivery', {
    config: {
      contract: saveContract('https://hooks.harbourdental.example/tasman/receipts', ['message.dlr'], { delivery_receipt: WEBHOOK_EXAMPLES.saved }),
      scope: 'manage',
    },
    schema: {
      tags, summary: 'Create or update the delivery-receipt webhook',
      description: `Where message.dlr (a delivery receipt arrived) and, if chosen, message.click events are POSTed. ${SAVE}`,
      body: SaveEndpointRequest, response: { 200: SavedDeliveryEndpoint },
    },
  }, async (request) => ({ delivery_receipt: await webhooks.save(request.actor, 'delivery_receipt', request.body) }));

  app.put('/webhooks/inbound', {
    config: {
      contract: saveContract('https://hooks.harbourdental.example/tasman/inbound', ['message.inbound'], {
        inbound: { ...WEBHOOK_EXAMPLES.saved, url: 'https://hooks.harbourdental.example/tasman/inbound', events: ['message.inbound'] },
      }),
      scope: 'manage',
    },
    schema: {
      tags, summary: 'Create or update the inbound-message webhook',
      description: `Where message.inbound events (a message arrived on one of the account\'s numbers, opt-outs included) are POSTed. ${SAVE}`,
      body: SaveEndpointRequest, response: { 200: SavedInboundEndpoint },
    },
  }, async (request) => ({ inbound: await webhooks.save(request.actor, 'inbound', request.body) }));

  app.post('/webhooks/delivery', {
    config: { contract: rotateContract, scope: 'manage' },
    schema: { tags, summary: 'Rotate the delivery-receipt signing secret (shown once)', description: ROTATE, response: { 200: RotatedSecret } },
  }, async (request) => webhooks.rotateSecret(request.actor, 'delivery_receipt'));

  app.post('/webhooks/inbound', {
    config: { contract: rotateContract, scope: 'manage' },
    schema: { tags, summary: 'Rotate the inbound signing secret (shown once)', description: ROTATE, response: { 200: RotatedSecret } },
  }, async (request) => webhooks.rotateSecret(request.actor, 'inbound'));

  app.get('/webhooks/deliveries', {
    config: { contract: { response: WEBHOOK_EXAMPLES.deliveries }, scope: 'read' },
    schema: {
      tags, summary: 'Recent webhook deliveries with every attempt, newest first',
      description: 'The account\'s webhook deliveries, newest first, each with every attempt: when, the status code or error, and how long it took. A delivery is tried at once, then about 1 and 5 minutes later; after the third failure it is failed (POST …/redeliver tries again). Needs the read scope.',
      querystring: DeliveriesQuery, response: { 200: DeliveryList },
    },
  }, async (request) => webhooks.deliveries(request.actor, request.query));

  app.post('/webhooks/deliveries/:id/redeliver', {
    config: { contract: { errors: ['not_found', 'delivery_in_progress'], response: WEBHOOK_EXAMPLES.redelivered }, scope: 'manage' },
    schema: {
      tags, summary: 'Queue a delivery again with a fresh set of attempts',
      description: 'Queues a delivered or failed delivery again, with the same body and X-…-Delivery id (receivers deduplicate on it) and a fresh schedule of attempts, to the endpoint\'s current URL. A delivery still pending answers 409 delivery_in_progress; another account\'s answers 404. Needs the manage scope.',
      params: IdParams, response: { 200: Redelivered },
    },
  }, async (request) => webhooks.redeliver(request.actor, request.params.id));
};
