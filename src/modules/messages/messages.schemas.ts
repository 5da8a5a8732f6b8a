import { Type } from 'typebox';
import type { Static } from '@fastify/type-provider-typebox';
import type { ErrorCode } from '../../platform/errors.ts';
import type { RouteContract } from '../../platform/http/route-registry.ts';
import { EX } from '../../platform/http/examples.ts';
import { csvLine } from '../../common/csv.ts';
import { described, nullable, Timestamp, Uuid } from '../../platform/http/schemas.ts';

export const Message = Type.String({ minLength: 1, maxLength: 10_000, description: 'Message text; {{OptOutLink}} becomes a one-tap opt-out link' });
const SenderField = Type.String({ maxLength: 20, description: 'A registered Sender ID or one of the account\'s dedicated numbers' });
const CampaignName = Type.String({ minLength: 1, maxLength: 200, description: 'Group the message under this campaign name (up to 200 characters): sends with the same name roll up into one campaign' });
const Urgent = Type.Boolean({ description: 'Send even inside the account\'s quiet hours (transactional texts); default false: a message due inside them is held until they end' });
const FromAlias = Type.String({ maxLength: 20, description: 'Alias of sender (sender wins when both are given)' });

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

const TemplateId = described(Uuid, 'A saved template of the account (an addition; GET /templates): its text is sent instead of message. Give message or template_id');

export const SendRequest = Type.Object({
  to: Type.String({ minLength: 1, maxLength: 40, description: 'AU or NZ mobile: E.164, international digits or local 04…/02…' }),
  message: Type.Optional(described(Message, 'Message text; {{OptOutLink}} becomes a one-tap opt-out link. Required unless template_id is given')),
  template_id: Type.Optional(TemplateId),
  sender: Type.Optional(SenderField),
  from: Type.Optional(FromAlias),
  campaign: Type.Optional(CampaignName),
  metadata: Type.Optional(Metadata),
  send_at: Type.Optional(SendAt),
  urgent: Type.Optional(Urgent),
  link_tracking: Type.Optional(LinkTracking),
}, { description: 'One message to one recipient' });

const Segments = Type.Integer({ description: 'SMS segments the carrier carries: GSM-7 160 characters in one, 153 each when longer; UCS-2 70, then 67. Carriers bill by segment; credits follow the parts rule instead (docs/api-contract.md)' });

export const SendResult = Type.Object({
  message_id: described(Uuid, 'The message\'s id: GET /message/{id} tracks it'),
  credits_used: Type.Integer({ description: 'Credits taken: one per part' }),
  credits_remaining: Type.Integer({ description: 'The account\'s balance after the send' }),
  recipient: Type.String({ description: 'The E.164 number the message goes to: how `to` was read (a local number in the account\'s country)' }),
  segments: Segments,
}, { description: 'The message is accepted: committed to the queue and charged' });

const InvalidNumber = Type.Object({
  number: Type.String({ description: 'The recipient as given' }),
  reason: Type.String({ description: 'Why it cannot be sent to, in words (for example "an Australian landline, not a mobile")' }),
});

const MergeData = Type.Record(Type.String(), Type.String(), { description: 'Values for this recipient\'s {{placeholders}} in the message: {"name": "Ana"} fills {{name}} (and {name}, single braces, since name is a field of the batch)' });

const StrictMergeFields = Type.Boolean({ description: 'Refuse the batch (400 merge_field_missing, naming the recipients) when a recipient has no value for a field the message uses; default false: the field goes out empty for that recipient, and the preview lists it in missing_merge_fields' });

/** A batch's recipients in any of the accepted forms. */
export const BatchRecipients = Type.Array(Type.Union([
  Type.String({ maxLength: 40, description: 'A mobile number: E.164, international digits or local 04…/02…' }),
  Type.Object({
    phone: Type.String({ maxLength: 40, description: 'A mobile number: E.164, international digits or local 04…/02…' }),
    merge_data: Type.Optional(MergeData),
    metadata: Type.Optional(metadataSchema('This recipient\'s metadata, merged over the batch\'s (its keys win); at most 10 pairs after merging')),
  }),
  Type.Object({
    to: Type.String({ maxLength: 40, description: 'A mobile number, as `phone`' }),
  }, { additionalProperties: Type.String(), description: 'The client libraries\' form: {to, name: "Ana"} is read as {phone: to, merge_data: {name: "Ana"}}' }),
]), { minItems: 1, maxItems: 1000, description: '1 to 1,000 recipients: numbers, objects with a number (phone), merge values and metadata, or {to, …fields}. Required unless list_id is given' });

export const BatchRequest = Type.Object({
  recipients: Type.Optional(BatchRecipients),
  list_id: Type.Optional(described(Uuid, 'A contact list of the account (an addition): its contacts are sent to as well, with first_name, last_name, email and their custom fields as merge fields; opted-out ones are skipped. A list beyond 1,000 goes as one campaign, all or nothing, with one debit')),
  message: Type.Optional(described(Message, 'Message text with {{placeholders}} filled per recipient from merge_data (a placeholder no recipient has is 400 unknown_merge_field); {{OptOutLink}} becomes a one-tap opt-out link. Required unless template_id is given')),
  template_id: Type.Optional(TemplateId),
  sender: Type.Optional(SenderField),
  from: Type.Optional(FromAlias),
  campaign: Type.Optional(described(CampaignName, 'The campaign\'s name (up to 200 characters); default: none')),
  metadata: Type.Optional(Metadata),
  send_at: Type.Optional(SendAt),
  urgent: Type.Optional(Urgent),
  link_tracking: Type.Optional(LinkTracking),
  strict_merge_fields: Type.Optional(StrictMergeFields),
}, { description: 'One message text merged for up to 1,000 recipients' });

export const BatchResult = Type.Object({
  campaign_id: described(Uuid, 'The batch\'s campaign: GET /campaign/{id} tracks it'),
  recipients_queued: Type.Integer({ description: 'Messages accepted (one per valid, not opted-out, distinct recipient)' }),
  invalid_numbers: Type.Array(Type.String(), { description: 'Recipients that are not AU or NZ mobiles, as given; not sent or charged' }),
  invalid_details: Type.Array(InvalidNumber, { description: 'Each of invalid_numbers with the reason it was refused' }),
  opted_out_count: Type.Integer({ description: 'Recipients skipped because they are on the opt-out list' }),
  duplicates_removed: Type.Integer({ description: 'Repeats of a recipient already in the batch, skipped' }),
  credits_used: Type.Integer({ description: 'Credits taken: one per part per message' }),
  credits_remaining: Type.Integer({ description: 'The account\'s balance after the send' }),
  segments: Type.Integer({ description: 'SMS segments the carrier carries for the whole batch' }),
}, { description: 'The batch is accepted: its messages are committed to the queue and charged' });

export const MessageItem = Type.Object({
  id: described(Uuid, 'The message\'s id'),
  recipient: Type.String({ description: 'The recipient, E.164' }),
  sender: Type.String({ description: 'What it was sent from: a Sender ID or a number' }),
  body: nullable(Type.String(), 'The text as sent; null once past retention (90 days by default)'),
  status: Type.String({ description: 'queued, scheduled, sent, delivered, failed or cancelled' }),
  parts: Type.Integer({ description: 'SMS parts (and credits) the text took' }),
  campaign_id: nullable(Uuid, 'Its campaign, or null'),
  created_at: described(Timestamp, 'When it was accepted'),
  sent_at: nullable(Timestamp, 'When the carrier took it; null until then'),
  scheduled_at: Type.Union([Timestamp, Type.Null()], { description: 'When a scheduled message is (or was) due; null for one sent at once' }),
  error_code: Type.Union([Type.String(), Type.Null()], { description: 'Why a failed or cancelled message did not arrive: the SMPP status name of a refusal (ESME_…), the receipt state (undelivered, expired, rejected, deleted, delivery_unknown), cancelled or opted_out; null otherwise' }),
  error_message: Type.Union([Type.String(), Type.Null()], { description: 'One sentence explaining error_code' }),
  metadata: nullable(Metadata, 'The metadata sent with it, or null'),
}, { description: 'An outbound message' });

export const DeliveryReceipt = Type.Union([Type.Object({
  status: Type.String({ description: 'delivered, undelivered, expired, rejected, deleted or unknown' }),
  received_at: described(Timestamp, 'When the carrier reported it'),
  error_code: nullable(Type.String(), 'The carrier\'s error code for a failure, or null'),
}), Type.Null()], { description: 'The carrier\'s delivery receipt; null until one arrives' });

export const IntermediateReceipt = Type.Union([Type.Object({
  status: Type.Literal('enroute', { description: 'enroute: on its way, not final' }),
  detail: nullable(Type.String(), 'The state as the carrier named it (ENROUTE, ACCEPTD in an intermediate notification, …), or null'),
  error_code: nullable(Type.String(), 'The carrier\'s error code, or null'),
  received_at: described(Timestamp, 'When the carrier reported it'),
}), Type.Null()], { description: 'The latest non-final receipt the carrier sent (kept after the final one); null when none came' });

export const MessageLink = Type.Object({
  url: Type.Union([Type.String(), Type.Null()], { description: 'The URL the text had; null once the message is past retention (the short link then answers 404)' }),
  short_url: Type.String({ description: 'What the recipient received instead' }),
  clicks: Type.Integer({ description: 'Times the recipient followed it (link previews and crawlers are not counted)' }),
  first_clicked_at: nullable(Timestamp, 'The first counted click; null before one'),
  last_clicked_at: nullable(Timestamp, 'The latest counted click; null before one'),
});

/**
 * GET /message/{id} and, field for field, the message.dlr webhook body (its links as they stood when the event was
 * recorded; their click counts go on changing after).
 */
export const MessageResponse = Type.Object({
  message: MessageItem,
  delivery_receipt: DeliveryReceipt,
  intermediate_receipt: IntermediateReceipt,
  links: Type.Array(MessageLink, { description: 'Short links of a message sent with link_tracking, in text order; empty otherwise' }),
}, { description: 'The message, its delivery receipt and its tracked links' });

/** GET /message/{id}: the same body as the message.dlr webhook's. */
export const MessageDetail = MessageResponse;

export const MessageStatus = Type.Union(['queued', 'scheduled', 'sent', 'delivered', 'failed', 'cancelled'].map((s) => Type.Literal(s)), { description: 'Only messages in this status' });

export const MessageListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size, 1 to 100 (default 25)' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page' })),
  status: Type.Optional(MessageStatus),
  to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'A whole number in any accepted form (exact), or part of the E.164 number' })),
  campaign_id: Type.Optional(described(Uuid, 'Only messages of this campaign')),
  sender: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Sender ID (any case) or number' })),
  date_from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time (a date is an Australia/Sydney day, as in /report)' })),
  date_to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time, inclusive' })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text the body contains (any case); bodies past retention never match' })),
});

export const MessageExportQuery = Type.Omit(MessageListQuery, ['limit', 'cursor']);

/** The columns of GET /messages/export, in order: a list item's fields, its delivery receipt's spread out. */
export const EXPORT_COLUMNS = [
  'id', 'created_at', 'recipient', 'contact_name', 'sender', 'status', 'parts', 'campaign_id', 'sent_at', 'scheduled_at',
  'receipt_status', 'receipt_received_at', 'receipt_error_code', 'error_code', 'error_message', 'body', 'metadata',
] as const;

const ContactName = nullable(Type.String(), 'The name of the account\'s contact with the recipient\'s number (first and last), read with the list; null when no contact has it');

export const MessageListItem = Type.Object({ ...MessageItem.properties, contact_name: ContactName, delivery_receipt: DeliveryReceipt });

export const MessageList = Type.Object({
  messages: Type.Array(MessageListItem, { description: 'The page, newest first' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page' }),
}, { description: 'A page of messages' });

/** What a message's text and sender can be refused for, sent or previewed (messages.service.ts). */
const textErrors = ['invalid_number', 'message_empty', 'message_too_long', 'sender_not_allowed', 'unknown_merge_field'] as const;

/** What a send may be refused for (messages.service.ts): its text, its recipient, the account's credits, status and daily cap. */
export const replyErrors: ErrorCode[] = [...textErrors, 'recipient_opted_out', 'insufficient_credits', 'forbidden', 'daily_limit_exceeded'];

/** /send and /send-batch: a send, a send_at, and an Idempotency-Key (platform/http/idempotency.ts). */
export const sendContract = (sample: Record<string, unknown>): RouteContract => ({
  sample: { body: sample },
  errors: [...replyErrors, 'invalid_send_at', 'idempotency_in_flight', 'idempotency_mismatch', 'not_found'],
});

/** A preview refuses what the send would, but charges nothing and takes no Idempotency-Key. */
export const previewContract = (sample: Record<string, unknown>): RouteContract => ({ sample: { body: sample }, errors: [...textErrors, 'not_found'] });

/** A batch may also be refused for a recipient's missing merge field (strict_merge_fields), or a list_id not the account's. */
export const withBatchErrors = (contract: RouteContract): RouteContract => ({ ...contract, errors: [...(contract.errors ?? []), 'merge_field_missing', 'not_found'] });

export const SEND_SAMPLE = {
  to: '+61412345678', message: 'Hi Ana, your appointment is confirmed for Tue 2 Dec at 9:30am. Reply STOP to opt out.',
  campaign: 'Appointment reminders', metadata: { booking_id: 'BK-20931' },
};
export const BATCH_SAMPLE = {
  recipients: [{ phone: '+61412345678', merge_data: { name: 'Ana' } }, { phone: '0423 456 789', merge_data: { name: 'Tom' }, metadata: { booking_id: 'BK-20932' } }],
  message: 'Hi {{name}}, our Manly clinic reopens Monday. Reply STOP to opt out.', campaign: 'Manly reopening',
};

export const SEND_RESULT_EXAMPLE = { message_id: EX.message, credits_used: 1, credits_remaining: 999, recipient: '+61412345678', segments: 1 };
const MESSAGE_EXAMPLE = {
  id: EX.message, recipient: '+61412345678', sender: 'HarbourDnt', body: SEND_SAMPLE.message, status: 'delivered', parts: 1, campaign_id: EX.campaign,
  created_at: EX.sent, sent_at: EX.sent, scheduled_at: null, error_code: null, error_message: null, metadata: { booking_id: 'BK-20931' },
};
export const RECEIPT_EXAMPLE = { status: 'delivered', received_at: EX.delivered, error_code: null };
export const MESSAGE_EXAMPLES = {
  item: MESSAGE_EXAMPLE,
  detail: { message: MESSAGE_EXAMPLE, delivery_receipt: RECEIPT_EXAMPLE, intermediate_receipt: null, links: [] },
  list: { messages: [{ ...MESSAGE_EXAMPLE, contact_name: 'Ana Silva', delivery_receipt: RECEIPT_EXAMPLE }], next_cursor: 'eyJjIjoiMjAyNi0xMS0yN1QyMjowNDoxMC41MTJaIn0' },
  batch: {
    campaign_id: EX.campaign, recipients_queued: 2, invalid_numbers: [], invalid_details: [], opted_out_count: 0, duplicates_removed: 0,
    credits_used: 2, credits_remaining: 998, segments: 2,
  },
  preview: { phone: '+61412345678', text: SEND_SAMPLE.message, encoding: 'gsm7', parts: 1, credits: 1, segments: 1, opted_out: false },
  batchPreview: {
    recipients: [
      { phone: '+61412345678', text: 'Hi Ana, our Manly clinic reopens Monday. Reply STOP to opt out.', encoding: 'gsm7', parts: 1, credits: 1, segments: 1 },
      { phone: '+61423456789', text: 'Hi Tom, our Manly clinic reopens Monday. Reply STOP to opt out.', encoding: 'gsm7', parts: 1, credits: 1, segments: 1 },
    ],
    total_credits: 2, total_segments: 2, invalid_numbers: [], invalid_details: [], opted_out_count: 0, duplicates_removed: 0, missing_merge_fields: [],
  },
  cancel: { ok: true, status: 'cancelled', credits_refunded: 1, credits_remaining: 1000 },
  csv: csvLine([...EXPORT_COLUMNS]) + csvLine([
    EX.message, EX.sent, '+61412345678', 'Ana Lopez', 'HarbourDnt', 'delivered', '1', EX.campaign, EX.sent, null,
    'delivered', EX.delivered, null, null, null, SEND_SAMPLE.message, JSON.stringify(MESSAGE_EXAMPLE.metadata),
  ]),
};

export const PreviewRecipient = Type.Object({
  phone: Type.String({ description: 'E.164' }),
  text: Type.String({ description: 'The text as it will be sent, merge fields and links filled in' }),
  encoding: Type.Union([Type.Literal('gsm7'), Type.Literal('ucs2')], { description: 'How the carrier link will encode it' }),
  parts: Type.Integer({ description: 'SMS parts the text takes' }),
  credits: Type.Integer({ description: 'Credits it would cost: one per part' }),
  segments: Segments,
});

export const SendPreview = Type.Object({
  ...PreviewRecipient.properties,
  opted_out: Type.Boolean({ description: 'The recipient is on the opt-out list: /send would answer 400 recipient_opted_out' }),
}, { description: 'What /send would send and charge' });

export const BatchPreview = Type.Object({
  recipients: Type.Array(PreviewRecipient, { description: 'Each message /send-batch would send, merged' }),
  total_credits: Type.Integer({ description: 'Credits the batch would cost' }),
  total_segments: Type.Integer({ description: 'SMS segments the carrier would carry for the whole batch' }),
  invalid_numbers: Type.Array(Type.String(), { description: 'Recipients that are not AU or NZ mobiles, as given' }),
  invalid_details: Type.Array(InvalidNumber, { description: 'Each of invalid_numbers with the reason it was refused' }),
  opted_out_count: Type.Integer({ description: 'Recipients it would skip as opted out' }),
  duplicates_removed: Type.Integer({ description: 'Repeated recipients it would skip' }),
  missing_merge_fields: Type.Array(Type.Object({
    phone: Type.String({ description: 'The recipient, E.164' }),
    fields: Type.Array(Type.String(), { description: 'The fields the message uses that this recipient has no value for' }),
  }), { description: 'Recipients that would get the empty string for a field others have (strict_merge_fields refuses the batch instead)' }),
}, { description: 'What /send-batch would send and charge' });

export const CancelResult = Type.Object({
  ok: Type.Boolean({ description: 'true: the message is cancelled' }),
  status: Type.Literal('cancelled', { description: 'The message\'s new status' }),
  credits_refunded: Type.Integer({ description: 'Credits returned to the balance' }),
  credits_remaining: Type.Integer({ description: 'The balance after the refund' }),
}, { description: 'The message is cancelled and refunded' });

/** A reply's text and optional campaign: the recipient and sender come from the inbound message. */
export const ReplyRequest = Type.Object({ message: Message, campaign: Type.Optional(CampaignName) }, { description: 'The reply\'s text; the recipient and sender come from the inbound message' });

// The service's inputs and results are these schemas' types, so the two cannot drift. A send reaches the service
// with its template resolved (templates.resolve): the message text is there and template_id is gone.
type Resolved<T> = Omit<T, 'message' | 'template_id'> & { message: string };
export type SendInput = Resolved<Static<typeof SendRequest>>;
export type BatchInput = Resolved<Static<typeof BatchRequest>>;
export type SendResult = Static<typeof SendResult>;
export type BatchResult = Static<typeof BatchResult>;
export type InvalidNumber = Static<typeof InvalidNumber>;
export type PreviewRecipient = Static<typeof PreviewRecipient>;
export type BatchPreview = Static<typeof BatchPreview>;
