import { Type } from 'typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';

const ContactName = nullable(Type.String(), 'The name of the account\'s contact with this number (first and last), read when listed; null when no contact has it');

export const InboxQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size, 1 to 100 (default 25)' })),
  offset: Type.Optional(Offset),
  from: Type.Optional(Type.String({ maxLength: 40, description: 'Part of the sender\'s number' })),
  date_from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time (a date is an Australia/Sydney day, as in /report)' })),
  date_to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time, inclusive' })),
  unread: Type.Optional(Type.Boolean({ description: 'true: only messages not yet marked read (listing never marks them)' })),
});

export const InboxItem = Type.Object({
  id: described(Uuid, 'The inbound message\'s id (POST /inbox/{id}/reply answers it)'),
  from: Type.String({ description: 'The customer\'s number, E.164' }),
  to: Type.String({ description: 'The service number that received it' }),
  body: nullable(Type.String(), 'The text as received; null after the retention period'),
  received_at: described(Timestamp, 'When the carrier delivered it to Tasman'),
  in_reply_to: nullable(Uuid, 'The outbound message it appears to answer (the latest to this sender from this number), or null'),
  is_optout: Type.Boolean({ description: 'An opt-out keyword (STOP, UNSUBSCRIBE…) was its first word: the sender is on the opt-out list' }),
  is_optin: Type.Boolean({ description: 'START, UNSTOP or SUBSCRIBE as the first word: the sender\'s opt-out was removed' }),
  direction: Type.Literal('inbound', { description: 'Always inbound' }),
  sender: Type.String({ description: 'Same as from' }),
  recipient: Type.String({ description: 'Same as to' }),
  created_at: described(Timestamp, 'When it was stored'),
  reply_to_body: nullable(Type.String(), 'Body of the message replied to, or null'),
  campaign_id: nullable(Type.String(), 'the campaign of the message replied to, or null'),
  status: Type.Literal('received', { description: 'Always received' }),
  unread: Type.Boolean({ description: 'Not yet marked read (POST /inbox/{id}/read or /conversations/{number}/read); listing never marks it' }),
  contact_name: ContactName,
}, { description: 'A message received on one of the account\'s numbers' });

export const InboxList = Type.Object({
  messages: Type.Array(InboxItem, { description: 'The page, newest first' }),
  total: Type.Integer({ description: 'Messages matching the filters, over all pages' }),
  unread_total: Type.Integer({ description: 'The account\'s unread inbound messages, whatever the filters' }),
  limit: Type.Integer({ description: 'The page size used' }),
  offset: Type.Integer({ description: 'The offset used' }),
}, { description: 'A page of inbound messages' });

export const INBOX_EXAMPLE = {
  messages: [{
    id: EX.inbound, from: '+61412345678', to: '+61480000123', body: 'Yes, see you Tuesday', received_at: EX.later, in_reply_to: EX.message,
    is_optout: false, is_optin: false, direction: 'inbound', sender: '+61412345678', recipient: '+61480000123', created_at: EX.later,
    reply_to_body: 'Hi Ana, your appointment is confirmed for Tue 2 Dec at 9:30am. Reply STOP to opt out.', campaign_id: EX.campaign, status: 'received', unread: true,
    contact_name: 'Ana Silva',
  }],
  total: 1, unread_total: 1, limit: 25, offset: 0,
};

export const ReadResult = Type.Object({
  ok: Type.Boolean({ description: 'true: marked read' }),
  marked: Type.Integer({ description: 'Messages that were unread and now are read (0 when already read)' }),
  unread_total: Type.Integer({ description: 'The account\'s unread inbound messages after this call' }),
}, { description: 'Marked read' });

export const ConversationParams = Type.Object({
  number: Type.String({ pattern: '^\\+[1-9][0-9]{6,14}$', description: 'The other party\'s number, E.164 (encode + as %2B in the path)' }),
});

export const ConversationQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'The latest messages to show, 1 to 200 (default 50)' })),
});

export const ConversationEntry = Type.Object({
  id: described(Uuid, 'The message\'s id: GET /message/{id} for an outbound one, POST /inbox/{id}/reply for an inbound one'),
  direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound')], { description: 'inbound: they wrote; outbound: the account sent' }),
  body: nullable(Type.String(), 'The text; null after the retention period'),
  at: described(Timestamp, 'When it was received (inbound) or accepted for sending (outbound)'),
  status: Type.String({ description: 'received for inbound; the message status for outbound (queued, sent, delivered…)' }),
  unread: Type.Boolean({ description: 'An inbound message not yet marked read; always false for outbound' }),
  service_number: Type.String({ description: 'The account\'s side: the number or Sender ID it went from, or the number it came in on' }),
}, { description: 'One message of the conversation' });

export const Conversation = Type.Object({
  number: Type.String({ description: 'The other party, E.164' }),
  name: nullable(Type.String(), 'The contact\'s name (first and last), else the `name` metadata of the latest message to this number that has one, else null'),
  unread: Type.Integer({ description: 'Inbound messages from this number not yet marked read' }),
  messages: Type.Array(ConversationEntry, { description: 'The latest messages both ways, oldest first' }),
}, { description: 'Every message to and from one number, in time order' });

export const CONVERSATION_EXAMPLE = {
  number: '+61412345678', name: 'Ana', unread: 1,
  messages: [
    { id: EX.message, direction: 'outbound', body: 'Hi Ana, your appointment is confirmed for Tue 2 Dec at 9:30am.', at: EX.sent, status: 'delivered', unread: false, service_number: '+61480000123' },
    { id: EX.inbound, direction: 'inbound', body: 'Yes, see you Tuesday', at: EX.later, status: 'received', unread: true, service_number: '+61480000123' },
  ],
};
