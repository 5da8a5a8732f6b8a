import { Type } from 'typebox';
import type { OpenAPIV3_1 } from 'openapi-types';
import { Timestamp, Uuid } from '../../platform/http/schemas.ts';

// The OpenAPI document's `webhooks` section: the two events Tasman POSTs to a client's endpoint, with the headers
// of every attempt. docs/webhooks.md is the receiver's guide; this is the machine-readable form.

const header = (name: string, description: string, example?: string): OpenAPIV3_1.ParameterObject => ({
  name, in: 'header', required: true, description, schema: { type: 'string', ...(example ? { example } : {}) },
});
const json = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });

const signed = (event: string) => [
  header('X-Service-Event', `the event type: \`${event}\``, event),
  header('X-Service-Delivery', 'UUID of this delivery: the same on every retry and redelivery; deduplicate on it'),
  { ...header('X-Service-Signature', '`sha256=<lower-case hex HMAC-SHA256 of the raw body>`, keyed with the whole signing secret string; sent when signing is on (always, for endpoints created with PUT)'), required: false },
  header('X-Texto-Event', 'the same value as X-Service-Event (the header the official client libraries read)', event),
  header('X-Texto-Delivery', 'the same value as X-Service-Delivery'),
  { ...header('X-Texto-Signature', 'the same value as X-Service-Signature'), required: false },
  header('webhook-id', 'Standard Webhooks: the delivery id (= X-Service-Delivery)'),
  header('webhook-timestamp', 'Standard Webhooks: this attempt\'s time, Unix seconds; reject old ones to stop replays'),
  { ...header('webhook-signature', 'Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the bytes the base64 after `whsec_` decodes to; for 24 hours after a rotation it carries the previous secret\'s signature too'), required: false },
];

const acknowledged = {
  '2XX': { description: 'Delivered. Any 2xx within 15 seconds; the body is ignored. Anything else (3xx included), or no answer, is retried about 1 and 5 minutes later, then the delivery fails.' },
};

export const InboundEvent = Type.Object({
  event: Type.Literal('message.inbound'),
  message_id: Uuid,
  from: Type.String({ description: 'the customer\'s number, E.164' }),
  to: Type.String({ description: 'the service number that received it' }),
  body: Type.String(),
  received_at: Timestamp,
  in_reply_to: Type.Union([Uuid, Type.Null()], { description: 'the outbound message this appears to reply to' }),
  is_optout: Type.Boolean({ description: 'an opt-out keyword: already on /optouts when the event is sent' }),
  is_optin: Type.Optional(Type.Boolean()),
});

/**
 * The `webhooks` section. `dlrBody` is the `GET /message/{id}` response schema (the message.dlr body, field for
 * field), `clickBody` the message.click body; app.ts passes them in, so this module depends on neither module.
 * TypeBox schemas are JSON Schema, which OpenAPI 3.1 takes as is; openapi-types cannot see that, hence the cast.
 */
export const webhookEvents = (dlrBody: unknown, clickBody: unknown) => ({
  'message.dlr': {
    post: {
      summary: 'A message reached its final state',
      description: 'Once per message, when its final delivery receipt is recorded; also when the SMSC refused it at submit (`delivery_receipt.status` `rejected`, with `error_code`) or it expired without a receipt (`expired`), so every message ends with one. The body has the fields of `GET /message/{id}`, its `links` as they stood when the event was recorded. Signed with the delivery-receipt secret. Sent while the delivery endpoint\'s `events` include `message.dlr` (the default). An endpoint whose `events` also list `message.dlr.intermediate` gets it for non-final receipts too (ENROUTE, intermediate notifications): `delivery_receipt` null, `intermediate_receipt` set, the message still `sent`.',
      parameters: signed('message.dlr'),
      requestBody: json(dlrBody),
      responses: acknowledged,
    },
  },
  'message.click': {
    post: {
      summary: 'A recipient followed a tracked link',
      description: 'Opt-in: sent while the delivery endpoint\'s `events` include `message.click` (PUT /webhooks/delivery). Once per counted click on a short link of a message sent with `link_tracking`; link previews and crawlers that name themselves are not counted (docs/webhooks.md lists them). `clicks` is the count including this one, so `clicks: 1` is the first. Signed with the delivery-receipt secret.',
      parameters: signed('message.click'),
      requestBody: json(clickBody),
      responses: acknowledged,
    },
  },
  'message.inbound': {
    post: {
      summary: 'A reply or other inbound message arrived',
      description: 'Once per inbound message on one of the account\'s numbers (or a shared number routed to it), opt-out replies included. Deduplicate on `message_id`. Signed with the inbound secret.',
      parameters: signed('message.inbound'),
      requestBody: json(InboundEvent),
      responses: acknowledged,
    },
  },
}) as unknown as Record<string, OpenAPIV3_1.PathItemObject>;
