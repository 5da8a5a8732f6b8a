import { Type } from '@fastify/type-provider-typebox';
import { errors, NullableTimestamp, Timestamp, Uuid } from '../../platform/http/schemas.ts';

const Message = Type.String({ minLength: 1, maxLength: 10_000, description: 'Message text; {{OptOutLink}} becomes a one-tap opt-out link' });
const SenderField = Type.String({ maxLength: 20, description: 'A registered Sender ID or one of the account\'s dedicated numbers' });
const CampaignName = Type.String({ minLength: 1, maxLength: 200 });

export const SendRequest = Type.Object({
  to: Type.String({ minLength: 1, maxLength: 40, description: 'AU or NZ mobile: E.164, international digits or local 04…/02…' }),
  message: Message,
  sender: Type.Optional(SenderField),
  from: Type.Optional(Type.String({ maxLength: 20, description: 'Alias of sender' })),
  campaign: Type.Optional(CampaignName),
});

export const SendResult = Type.Object({
  message_id: Uuid,
  credits_used: Type.Integer(),
  credits_remaining: Type.Integer(),
});

const MergeData = Type.Record(Type.String(), Type.String());

export const BatchRequest = Type.Object({
  recipients: Type.Array(Type.Union([
    Type.String({ maxLength: 40 }),
    Type.Object({ phone: Type.String({ maxLength: 40 }), merge_data: Type.Optional(MergeData) }),
  ]), { minItems: 1, maxItems: 1000 }),
  message: Message,
  sender: Type.Optional(SenderField),
  from: Type.Optional(Type.String({ maxLength: 20 })),
  campaign: Type.Optional(CampaignName),
});

export const BatchResult = Type.Object({
  campaign_id: Uuid,
  recipients_queued: Type.Integer(),
  invalid_numbers: Type.Array(Type.String()),
  opted_out_count: Type.Integer(),
  duplicates_removed: Type.Integer(),
  credits_used: Type.Integer(),
  credits_remaining: Type.Integer(),
});

export const MessageItem = Type.Object({
  id: Uuid,
  recipient: Type.String(),
  sender: Type.String(),
  body: Type.Union([Type.String(), Type.Null()]),
  status: Type.String({ description: 'queued, sent, delivered or failed' }),
  parts: Type.Integer(),
  campaign_id: Type.Union([Uuid, Type.Null()]),
  created_at: Timestamp,
  sent_at: NullableTimestamp,
});

export const DeliveryReceipt = Type.Union([Type.Object({
  status: Type.String({ description: 'delivered, undelivered, expired, rejected, deleted or unknown' }),
  received_at: Timestamp,
  error_code: Type.Union([Type.String(), Type.Null()]),
}), Type.Null()]);

export const MessageResponse = Type.Object({ message: MessageItem, delivery_receipt: DeliveryReceipt });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});

export const sendErrors = errors(400, 401, 402, 403, 409, 422, 429);
