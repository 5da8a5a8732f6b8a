import { Type } from 'typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import { UUID_PATTERN } from '../../platform/ids.ts';

export const EndpointView = Type.Object({
  url: Type.String({ description: 'Where Tasman POSTs the events (credentials in it are masked)' }),
  enabled: Type.Boolean({ description: 'Events are sent to it' }),
  signing_enabled: Type.Boolean({ description: 'true once a signing secret exists (PUT creates one with the endpoint; POST rotates it)' }),
  disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'why the service switched the endpoint off (every delivery failing); PUT enables it again' }),
  events: Type.Array(Type.String(), { description: 'the event types this endpoint receives: message.dlr (and message.click, message.dlr.intermediate once opted in) for delivery, message.inbound for inbound' }),
  created_at: described(Timestamp, 'When the endpoint was first saved'),
  updated_at: described(Timestamp, 'When it was last changed'),
}, { description: 'A webhook endpoint' });

export const EndpointDetail = Type.Object({
  ...EndpointView.properties,
  secret: Type.Optional(Type.String({ description: 'The signing secret, generated when the endpoint is created (or had none), shown only in this response' })),
});

export const WebhookConfig = Type.Object({
  delivery_receipt: nullable(EndpointView, 'The delivery endpoint (message.dlr, message.click), or null'),
  inbound: nullable(EndpointView, 'The inbound endpoint (message.inbound), or null'),
}, { description: 'Each endpoint is null until its URL is set' });

export const WebhookEvent = Type.Union([Type.Literal('message.dlr'), Type.Literal('message.inbound'), Type.Literal('message.click')], { description: 'message.dlr, message.inbound or message.click' });

/** What an endpoint's `events` may name: the event types, and the opt-in for intermediate receipts (outbox.ts). */
const EndpointEvent = Type.Union([...WebhookEvent.anyOf, Type.Literal('message.dlr.intermediate')], {
  description: 'message.dlr, message.inbound, message.click, or message.dlr.intermediate (message.dlr events for non-final receipts too)',
});

export const SaveEndpointRequest = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'https:// URL with a public address (http and private addresses only with WEBHOOK_ALLOW_PRIVATE)' }),
  enabled: Type.Optional(Type.Boolean({ description: 'default true when the endpoint is created; unchanged when omitted on update' })),
  events: Type.Optional(Type.Array(EndpointEvent, {
    minItems: 1, maxItems: 4,
    description: 'The event types to receive. The delivery endpoint offers message.dlr (its default: final receipts), the opt-in message.click (a tracked link was followed) and the opt-in message.dlr.intermediate (message.dlr events for non-final receipts too, such as ENROUTE: `intermediate_receipt` set, `delivery_receipt` still null); the inbound endpoint offers message.inbound. Unchanged when omitted on update.',
  })),
}, { description: 'The endpoint\'s URL and options' });

const Saved = described(EndpointDetail, 'The endpoint as saved');
export const SavedDeliveryEndpoint = Type.Object({ delivery_receipt: Saved }, { description: 'The delivery endpoint is saved' });
export const SavedInboundEndpoint = Type.Object({ inbound: Saved }, { description: 'The inbound endpoint is saved' });

export const RotatedSecret = Type.Object({
  secret: Type.String({ description: 'The new signing secret, shown only in this response. X-…-Signature uses it at once; webhook-signature carries the previous secret too for 24 hours.' }),
}, { description: 'The new secret, this once' });

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], { description: 'pending (attempts remain), delivered (a 2xx answered) or failed (every attempt failed)' });

export const DeliveriesQuery = Type.Object({
  status: Type.Optional(described(DeliveryStatus, 'Only deliveries in this status')),
  event: Type.Optional(described(WebhookEvent, 'Only deliveries of this event type')),
  message_id: Type.Optional(Type.String({ format: 'uuid', pattern: UUID_PATTERN, description: 'Only the deliveries about this message (its timeline in the dashboard)' })),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size, 1 to 100 (default 25)' }),
  offset: Offset,
});

export const Attempt = Type.Object({
  attempted_at: described(Timestamp, 'When the attempt started'),
  status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status, null when no response arrived' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'why the attempt failed without a usable response (timeout, connection refused, redirect not followed, ...)' }),
  duration_ms: Type.Integer({ description: 'How long the endpoint took to answer (or to fail), in milliseconds' }),
}, { description: 'One POST to the endpoint' });

export const Delivery = Type.Object({
  id: Type.String({ description: 'The X-Service-Delivery header value: the same on every attempt and on redelivery' }),
  event: WebhookEvent,
  message_id: nullable(Uuid, 'The message the event is about (outbound for message.dlr and message.click, inbound for message.inbound)'),
  status: DeliveryStatus,
  attempt_count: Type.Integer({ description: 'attempts in the current schedule (a redelivery starts again at 0)' }),
  created_at: described(Timestamp, 'When the event was recorded'),
  next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'when pending: the next attempt is due then' }),
  completed_at: nullable(Timestamp, 'When it was delivered or given up; null while pending'),
  attempts: Type.Array(Attempt, { description: 'every attempt, oldest first, redeliveries included' }),
}, { description: 'One event sent (or being sent) to an endpoint' });

export const DeliveryList = Type.Object({
  deliveries: Type.Array(Delivery, { description: 'The page, newest first' }),
  total: Type.Integer({ description: 'Deliveries matching the filters, over all pages' }),
  limit: Type.Integer({ description: 'The page size used' }),
  offset: Type.Integer({ description: 'The offset used' }),
}, { description: 'A page of recent deliveries' });

export const Redelivered = Type.Object({
  ok: Type.Boolean({ description: 'true: queued again' }), delivery: described(Delivery, 'The delivery, pending again'),
}, { description: 'The delivery is queued again' });

const DELIVERY_EXAMPLE = {
  id: EX.delivery, event: 'message.dlr', message_id: EX.message, status: 'delivered', attempt_count: 1, created_at: EX.delivered,
  next_attempt_at: null, completed_at: '2026-11-27T22:04:13.402Z',
  attempts: [{ attempted_at: '2026-11-27T22:04:13.219Z', status_code: 200, error: null, duration_ms: 183 }],
};
const ENDPOINT_EXAMPLE = {
  url: 'https://hooks.harbourdental.example/tasman/receipts', enabled: true, signing_enabled: true, disabled_reason: null, events: ['message.dlr'],
  created_at: EX.created, updated_at: EX.created,
};
export const WEBHOOK_EXAMPLES = {
  config: { delivery_receipt: ENDPOINT_EXAMPLE, inbound: null },
  saved: { ...ENDPOINT_EXAMPLE, secret: 'whsec_Jx5q8Vm2Lr7Tb0Nc4Ky9Wd3Hs6Pf1Ga' },
  rotated: { secret: 'whsec_Qw3e5Rt7Yu9Io1Pa2Sd4Fg6Hj8Kl0Zx' },
  deliveries: { deliveries: [DELIVERY_EXAMPLE], total: 1, limit: 25, offset: 0 },
  redelivered: {
    ok: true,
    delivery: { ...DELIVERY_EXAMPLE, status: 'pending', attempt_count: 0, next_attempt_at: EX.later, completed_at: null },
  },
};
