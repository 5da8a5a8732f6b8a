import { Type } from '@fastify/type-provider-typebox';
import { Uuid } from '../../platform/http/schemas.ts';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A calendar day in Australia/Sydney, YYYY-MM-DD' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const Direction = Type.Union([Type.Literal('all'), Type.Literal('outbound'), Type.Literal('inbound')]);
const Status = Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('delivered'), Type.Literal('failed')]);
const Country = Type.Union([Type.Literal('AU'), Type.Literal('NZ')]);

export const RangeQuery = Type.Object({
  from: Type.Optional(Type.String({ ...Day, description: 'First day, included (default: 30 days before `to`)' })),
  to: Type.Optional(Type.String({ ...Day, description: 'Last day, included (default: today in Sydney)' })),
});

export const ReportQuery = Type.Object({
  ...RangeQuery.properties,
  direction: Type.Optional(Type.Union(Direction.anyOf, { default: 'all', description: 'outbound zeroes inbound; inbound zeroes the message counters and credits' })),
  status: Type.Optional(Type.Union(Status.anyOf, { description: '`sent` = accepted by the SMSC, whatever came after (the `sent` counter)' })),
  country: Type.Optional(Country),
  campaign_id: Type.Optional(Uuid),
  keyword: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Case-insensitive text match; content removed by retention no longer matches' })),
  number: Type.Optional(Type.String({
    pattern: '^[+ ]?[1-9][0-9]{6,14}$',
    description: 'E.164: the recipient of outbound messages, the sender of inbound ones, the opted-out number',
  })),
});

const MessageCounters = Type.Object({
  total: Type.Integer({ description: 'outbound messages created in the range' }),
  parts: Type.Integer({ description: 'their billed parts' }),
  sent: Type.Integer({ description: 'of them, accepted by the SMSC (sent_at set), whatever came after' }),
  delivered: Type.Integer({ description: 'of them, delivered' }),
  failed: Type.Integer({ description: 'of them, finally failed: refused at submit or undelivered' }),
});

export const UsageReport = Type.Object({
  account_id: Uuid,
  from: Day,
  to: Day,
  summary: Type.Object({
    messages: MessageCounters,
    credits_consumed: Type.Integer({ description: 'send debits less refunds; never transfers' }),
    inbound: Type.Integer({ description: 'inbound messages received in the range, opt-out replies included' }),
    optouts: Type.Integer({ description: 'opt-outs recorded in the range' }),
  }),
  filters: Type.Object({
    direction: Direction,
    status: Type.Union([Status, Type.Null()]),
    country: Type.Union([Country, Type.Null()]),
    campaign_id: Type.Union([Uuid, Type.Null()]),
    keyword: Nullable(Type.String()),
    number: Nullable(Type.String()),
  }),
});

export const GroupReport = Type.Object({
  from: Day,
  to: Day,
  accounts: Type.Array(Type.Object({
    account_id: Uuid,
    business_name: Type.String(),
    credits_consumed: Type.Integer(),
    delivery_rate: Type.Number({ description: 'delivered / (delivered + failed), 0 when no message reached a final outcome' }),
    messages: MessageCounters,
    inbound: Type.Integer(),
    optouts: Type.Integer(),
  })),
  grand_total: Type.Object({
    credits_consumed: Type.Integer(),
    inbound: Type.Integer(),
    optouts: Type.Integer(),
    messages: MessageCounters,
  }),
});

export const DailyReport = Type.Object({
  from: Day,
  to: Day,
  days: Type.Array(Type.Object({
    day: Day, total: Type.Integer(), sent: Type.Integer(), delivered: Type.Integer(), failed: Type.Integer(),
  })),
});
