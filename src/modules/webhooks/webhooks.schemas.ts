import { Type } from '@fastify/type-provider-typebox';
import { NullableTimestamp, Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import { UUID_PATTERN } from '../../platform/ids.ts';

export const EndpointView = Type.Object({
  url: Type.String(),
  enabled: Type.Boolean(),
  signing_enabled: Type.Boolean({ description: 'true once a signing secret exists (PUT creates one with the endpoint; POST rotates it)' }),
  disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'why the service switched the endpoint off (every delivery failing); PUT enables it again' }),
  events: Type.Array(Type.String(), { description: 'the event types this endpoint receives: message.dlr (and message.click once opted in) for delivery, message.inbound for inbound' }),
});

export const EndpointDetail = Type.Object({
  ...EndpointView.properties,
  created_at: Timestamp,
  updated_at: Timestamp,
  secret: Type.Optional(Type.String({ description: 'The signing secret, generated when the endpoint is created (or had none), shown only in this response' })),
});

export const WebhookConfig = Type.Object({
  delivery_receipt: Type.Union([EndpointView, Type.Null()]),
  inbound: Type.Union([EndpointView, Type.Null()]),
}, { description: 'Each endpoint is null until its URL is set' });

export const WebhookEvent = Type.Union([Type.Literal('message.dlr'), Type.Literal('message.inbound'), Type.Literal('message.click')]);

export const SaveEndpointRequest = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'https:// URL with a public address (http and private addresses only with WEBHOOK_ALLOW_PRIVATE)' }),
  enabled: Type.Optional(Type.Boolean({ description: 'default true when the endpoint is created; unchanged when omitted on update' })),
  events: Type.Optional(Type.Array(WebhookEvent, {
    minItems: 1, maxItems: 3,
    description: 'The event types to receive. The delivery endpoint offers message.dlr (its default) and the opt-in message.click (a tracked link was followed); the inbound endpoint offers message.inbound. Unchanged when omitted on update.',
  })),
});

export const SavedDeliveryEndpoint = Type.Object({ delivery_receipt: EndpointDetail });
export const SavedInboundEndpoint = Type.Object({ inbound: EndpointDetail });

export const RotatedSecret = Type.Object({
  secret: Type.String({ description: 'The new signing secret, shown only in this response. X-…-Signature uses it at once; webhook-signature carries the previous secret too for 24 hours.' }),
});

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]);

export const DeliveriesQuery = Type.Object({
  status: Type.Optional(DeliveryStatus),
  event: Type.Optional(WebhookEvent),
  message_id: Type.Optional(Type.String({ format: 'uuid', pattern: UUID_PATTERN, description: 'Only the deliveries about this message (its timeline in the dashboard)' })),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
  offset: Offset,
});

export const Attempt = Type.Object({
  attempted_at: Timestamp,
  status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status, null when no response arrived' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'why the attempt failed without a usable response (timeout, connection refused, redirect not followed, ...)' }),
  duration_ms: Type.Integer(),
});

export const Delivery = Type.Object({
  id: Type.String({ description: 'The X-Service-Delivery header value: the same on every attempt and on redelivery' }),
  event: WebhookEvent,
  message_id: Type.Union([Uuid, Type.Null()]),
  status: DeliveryStatus,
  attempt_count: Type.Integer({ description: 'attempts in the current schedule (a redelivery starts again at 0)' }),
  created_at: Timestamp,
  next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'when pending: the next attempt is due then' }),
  completed_at: NullableTimestamp,
  attempts: Type.Array(Attempt, { description: 'every attempt, oldest first, redeliveries included' }),
});

export const DeliveryList = Type.Object({
  deliveries: Type.Array(Delivery),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const Redelivered = Type.Object({ ok: Type.Boolean(), delivery: Delivery });
