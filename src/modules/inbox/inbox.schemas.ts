import { Type } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';

export const InboxQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size, 1 to 100 (default 25)' })),
  offset: Type.Optional(Offset),
  from: Type.Optional(Type.String({ maxLength: 40, description: 'Part of the sender\'s number' })),
  date_from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time (a date is an Australia/Sydney day, as in /report)' })),
  date_to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time, inclusive' })),
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
}, { description: 'A message received on one of the account\'s numbers' });

export const InboxList = Type.Object({
  messages: Type.Array(InboxItem, { description: 'The page, newest first' }),
  total: Type.Integer({ description: 'Messages matching the filters, over all pages' }),
  limit: Type.Integer({ description: 'The page size used' }),
  offset: Type.Integer({ description: 'The offset used' }),
}, { description: 'A page of inbound messages' });

export const INBOX_EXAMPLE = {
  messages: [{
    id: EX.inbound, from: '+61412345678', to: '+61480000123', body: 'Yes, see you Tuesday', received_at: EX.later, in_reply_to: EX.message,
    is_optout: false, is_optin: false, direction: 'inbound', sender: '+61412345678', recipient: '+61480000123', created_at: EX.later,
    reply_to_body: 'Hi Ana, your appointment is confirmed for Tue 2 Dec at 9:30am. Reply STOP to opt out.', campaign_id: EX.campaign, status: 'received',
  }],
  total: 1, limit: 25, offset: 0,
};
