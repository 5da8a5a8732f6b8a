import { Type } from '@fastify/type-provider-typebox';
import type { ErrorCode } from '../../platform/errors.ts';
import type { RouteContract } from '../../platform/http/route-registry.ts';
import { NullableTimestamp, Timestamp, Uuid } from '../../platform/http/schemas.ts';

const Message = Type.String({ minLength: 1, maxLength: 10_000, description: 'Message text; {{OptOutLink}} becomes a one-tap opt-out link' });
const SenderField = Type.String({ maxLength: 20, description: 'A registered Sender ID or one of the account\'s dedicated numbers' });
const CampaignName = Type.String({ minLength: 1, maxLength: 200 });

/** The most metadata pairs a message carries, and the longest key and value. */
export const METADATA_LIMITS = { pairs: 10, keyLength: 40, valueLength: 500 } as const;

const LinkTracking = Type.Boolean({ description: 'Replace every http(s) URL in the text by a short link on the opt-out link base that counts clicks (GET /message/{id} `links`, the message.click webhook); parts and credits are counted after shortening. Default: the account\'s `link_tracking` setting' });

const SendAt = Type.String({ maxLength: 40, description: 'ISO 8601 date-time with offset, up to 35 days ahead: the message waits as `scheduled` until then (credits are taken now, returned on cancel)' });

const metadataSchema = (description: string) => Type.Record(Type.String(), Type.String({ maxLength: METADATA_LIMITS.valueLength }), {
  maxProperties: METADATA_LIMITS.pairs,
  propertyNames: { minLength: 1, maxLength: METADATA_LIMITS.keyLength },
  description,
});

export const Metadata = metadataSchema(`Your own key/value strings (at most ${METADATA_LIMITS.pairs} pairs; keys up to ${METADATA_LIMITS.keyLength} characters, values up to ${METADATA_LIMITS.valueLength}), echoed in GET /message/{id}, GET /messages and the message.dlr webhook`);

export const SendRequest = Type.Object({
  to: Type.String({ minLength: 1, maxLength: 40, description: 'AU or NZ mobile: E.164, international digits or local 04…/02…' }),
  message: Message,
  sender: Type.Optional(SenderField),
  from: Type.Optional(Type.String({ maxLength: 20, description: 'Alias of sender' })),
  campaign: Type.Optional(CampaignName),
  metadata: Type.Optional(Metadata),
  send_at: Type.Optional(SendAt),
  urgent: Type.Optional(Type.Boolean({ description: 'Send even inside the account\'s quiet hours (transactional texts); default false: a message due inside them is held until they end' })),
  link_tracking: Type.Optional(LinkTracking),
});

const Segments = Type.Integer({ description: 'SMS segments the carrier carries: GSM-7 160 characters in one, 153 each when longer; UCS-2 70, then 67. Carriers bill by segment; credits follow the parts rule instead (docs/api-contract.md)' });

export const SendResult = Type.Object({
  message_id: Uuid,
  credits_used: Type.Integer(),
  credits_remaining: Type.Integer(),
  recipient: Type.String({ description: 'The E.164 number the message goes to: how `to` was read (a local number in the account\'s country)' }),
  segments: Segments,
});

const InvalidNumber = Type.Object({
  number: Type.String({ description: 'The recipient as given' }),
  reason: Type.String({ description: 'Why it cannot be sent to, in words (for example "an Australian landline, not a mobile")' }),
});

const MergeData = Type.Record(Type.String(), Type.String());

export const BatchRequest = Type.Object({
  recipients: Type.Array(Type.Union([
    Type.String({ maxLength: 40 }),
    Type.Object({
      phone: Type.String({ maxLength: 40 }),
      merge_data: Type.Optional(MergeData),
      metadata: Type.Optional(metadataSchema('This recipient\'s metadata, merged over the batch\'s (its keys win); at most 10 pairs after merging')),
    }),
  ]), { minItems: 1, maxItems: 1000 }),
  message: Message,
  sender: Type.Optional(SenderField),
  from: Type.Optional(Type.String({ maxLength: 20 })),
  campaign: Type.Optional(CampaignName),
  metadata: Type.Optional(Metadata),
  send_at: Type.Optional(SendAt),
  urgent: Type.Optional(Type.Boolean({ description: 'Send even inside the account\'s quiet hours (transactional texts); default false: a message due inside them is held until they end' })),
  link_tracking: Type.Optional(LinkTracking),
});

export const BatchResult = Type.Object({
  campaign_id: Uuid,
  recipients_queued: Type.Integer(),
  invalid_numbers: Type.Array(Type.String()),
  invalid_details: Type.Array(InvalidNumber, { description: 'Each of invalid_numbers with the reason it was refused' }),
  opted_out_count: Type.Integer(),
  duplicates_removed: Type.Integer(),
  credits_used: Type.Integer(),
  credits_remaining: Type.Integer(),
  segments: Type.Integer({ description: 'SMS segments the carrier carries for the whole batch' }),
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
  scheduled_at: Type.Union([Timestamp, Type.Null()], { description: 'When a scheduled message is (or was) due; null for one sent at once' }),
  error_code: Type.Union([Type.String(), Type.Null()], { description: 'Why a failed or cancelled message did not arrive: the SMPP status name of a refusal (ESME_…), the receipt state (undelivered, expired, rejected, deleted, delivery_unknown), cancelled or opted_out; null otherwise' }),
  error_message: Type.Union([Type.String(), Type.Null()], { description: 'One sentence explaining error_code' }),
  metadata: Type.Union([Metadata, Type.Null()]),
});

export const DeliveryReceipt = Type.Union([Type.Object({
  status: Type.String({ description: 'delivered, undelivered, expired, rejected, deleted or unknown' }),
  received_at: Timestamp,
  error_code: Type.Union([Type.String(), Type.Null()]),
}), Type.Null()]);

export const MessageResponse = Type.Object({ message: MessageItem, delivery_receipt: DeliveryReceipt });

export const MessageLink = Type.Object({
  url: Type.Union([Type.String(), Type.Null()], { description: 'The URL the text had; null once the message is past retention (the short link then answers 404)' }),
  short_url: Type.String({ description: 'What the recipient received instead' }),
  clicks: Type.Integer({ description: 'Times the recipient followed it (link previews and crawlers are not counted)' }),
  first_clicked_at: NullableTimestamp,
  last_clicked_at: NullableTimestamp,
});

/** GET /message/{id}: the message.dlr body plus the links, whose click counts change after the receipt. */
export const MessageDetail = Type.Object({
  ...MessageResponse.properties,
  links: Type.Array(MessageLink, { description: 'Short links of a message sent with link_tracking, in text order; empty otherwise' }),
});

export const MessageStatus = Type.Union(['queued', 'scheduled', 'sent', 'delivered', 'failed', 'cancelled'].map((s) => Type.Literal(s)));

export const MessageListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page' })),
  status: Type.Optional(MessageStatus),
  to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'A whole number in any accepted form (exact), or part of the E.164 number' })),
  campaign_id: Type.Optional(Uuid),
  sender: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Sender ID (any case) or number' })),
  date_from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time (a date is an Australia/Sydney day, as in /report)' })),
  date_to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time, inclusive' })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text the body contains (any case); bodies past retention never match' })),
});

export const MessageListItem = Type.Object({ ...MessageItem.properties, delivery_receipt: DeliveryReceipt });

export const MessageList = Type.Object({
  messages: Type.Array(MessageListItem),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page' }),
});

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});

/** What a message's text and sender can be refused for, sent or previewed (messages.service.ts). */
const textErrors = ['invalid_number', 'message_empty', 'message_too_long', 'sender_not_allowed'] as const;

/** What a send may be refused for (messages.service.ts): its text, its recipient, the account's credits, status and daily cap. */
export const replyErrors: ErrorCode[] = [...textErrors, 'recipient_opted_out', 'insufficient_credits', 'forbidden', 'daily_limit_exceeded'];

/** /send and /send-batch: a send, a send_at, and an Idempotency-Key (platform/http/idempotency.ts). */
export const sendContract = (sample: Record<string, unknown>): RouteContract => ({
  sample: { body: sample },
  errors: [...replyErrors, 'invalid_send_at', 'idempotency_in_flight', 'idempotency_mismatch'],
});

/** A preview refuses what the send would, but charges nothing and takes no Idempotency-Key. */
export const previewContract = (sample: Record<string, unknown>): RouteContract => ({ sample: { body: sample }, errors: [...textErrors] });

export const SEND_SAMPLE = { to: '+61412345678', message: 'Hello from Tasman' };
export const BATCH_SAMPLE = { recipients: ['+61412345678'], message: 'Hello from Tasman' };

export const PreviewRecipient = Type.Object({
  phone: Type.String({ description: 'E.164' }),
  text: Type.String({ description: 'The text as it will be sent, merge fields and links filled in' }),
  encoding: Type.Union([Type.Literal('gsm7'), Type.Literal('ucs2')], { description: 'How the carrier link will encode it' }),
  parts: Type.Integer(),
  credits: Type.Integer(),
  segments: Segments,
});

export const SendPreview = Type.Object({
  ...PreviewRecipient.properties,
  opted_out: Type.Boolean({ description: 'The recipient is on the opt-out list: /send would answer 400 recipient_opted_out' }),
});

export const BatchPreview = Type.Object({
  recipients: Type.Array(PreviewRecipient),
  total_credits: Type.Integer(),
  total_segments: Type.Integer({ description: 'SMS segments the carrier would carry for the whole batch' }),
  invalid_numbers: Type.Array(Type.String()),
  invalid_details: Type.Array(InvalidNumber, { description: 'Each of invalid_numbers with the reason it was refused' }),
  opted_out_count: Type.Integer(),
  duplicates_removed: Type.Integer(),
});

export const CancelResult = Type.Object({
  ok: Type.Boolean(),
  status: Type.Literal('cancelled'),
  credits_refunded: Type.Integer(),
  credits_remaining: Type.Integer(),
});

/** A reply's text and optional campaign: the recipient and sender come from the inbound message. */
export const ReplyRequest = Type.Pick(SendRequest, ['message', 'campaign']);
