import { Type } from '@fastify/type-provider-typebox';
import { Offset, Timestamp, Uuid } from '../../platform/http/schemas.ts';

export const InboxQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
  offset: Type.Optional(Offset),
  from: Type.Optional(Type.String({ maxLength: 40, description: 'Part of the sender\'s number' })),
  date_from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time (a date is an Australia/Sydney day, as in /report)' })),
  date_to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time, inclusive' })),
});

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const InboxItem = Type.Object({
  id: Uuid,
  from: Type.String({ description: 'The customer\'s number, E.164' }),
  to: Type.String({ description: 'The service number that received it' }),
  body: Nullable(Type.String({ description: 'null after the retention period' })),
  received_at: Timestamp,
  in_reply_to: Nullable(Uuid),
  is_optout: Type.Boolean(),
  is_optin: Type.Boolean({ description: 'START, UNSTOP or SUBSCRIBE as the first word: the sender\'s opt-out was removed' }),
  direction: Type.Literal('inbound'),
  sender: Type.String({ description: 'Same as from' }),
  recipient: Type.String({ description: 'Same as to' }),
  created_at: Timestamp,
  reply_to_body: Nullable(Type.String({ description: 'Body of the message replied to' })),
  campaign_id: Nullable(Type.String({ description: 'the campaign of the message replied to, or null' })),
  status: Type.Literal('received'),
});

export const InboxList = Type.Object({
  messages: Type.Array(InboxItem),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
