import { Type } from 'typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Uuid } from '../../platform/http/schemas.ts';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A calendar day in Australia/Sydney, YYYY-MM-DD' });

const Direction = Type.Union([Type.Literal('all'), Type.Literal('outbound'), Type.Literal('inbound')], { description: 'all, outbound or inbound' });
const Status = Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('delivered'), Type.Literal('failed')], { description: 'queued, sent, delivered or failed' });
const Country = Type.Union([Type.Literal('AU'), Type.Literal('NZ')], { description: 'AU or NZ' });

export const RangeQuery = Type.Object({
  from: Type.Optional(Type.String({ ...Day, description: 'First day, included (default: 30 days before `to`)' })),
  to: Type.Optional(Type.String({ ...Day, description: 'Last day, included (default: today in Sydney)' })),
});

export const ReportQuery = Type.Object({
  ...RangeQuery.properties,
  direction: Type.Optional(Type.Union(Direction.anyOf, { default: 'all', description: 'outbound zeroes inbound; inbound zeroes the message counters and credits' })),
  status: Type.Optional(Type.Union(Status.anyOf, { description: '`sent` = accepted by the SMSC, whatever came after (the `sent` counter)' })),
  country: Type.Optional(described(Country, 'Only numbers of this country (AU or NZ)')),
  campaign_id: Type.Optional(described(Uuid, 'Only messages of this campaign')),
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
}, { description: 'Outbound message counters' });

const From = described(Day, 'The first day reported, YYYY-MM-DD (Australia/Sydney)');
const To = described(Day, 'The last day reported, included');
export const UsageReport = Type.Object({
  account_id: described(Uuid, 'The account reported on'),
  from: From,
  to: To,
  summary: Type.Object({
    messages: MessageCounters,
    credits_consumed: Type.Integer({ description: 'send debits less refunds; never transfers' }),
    inbound: Type.Integer({ description: 'inbound messages received in the range, opt-out replies included' }),
    optouts: Type.Integer({ description: 'opt-outs recorded in the range' }),
  }, { description: 'The totals' }),
  filters: Type.Object({
    direction: Direction,
    status: nullable(Status, 'The status filter, or null'),
    country: nullable(Country, 'The country filter, or null'),
    campaign_id: nullable(Uuid, 'The campaign filter, or null'),
    keyword: nullable(Type.String(), 'The keyword filter, or null'),
    number: nullable(Type.String(), 'The number filter, or null'),
  }, { description: 'The filters applied, as understood' }),
}, { description: 'The usage summary' });

export const GroupReport = Type.Object({
  from: From,
  to: To,
  accounts: Type.Array(Type.Object({
    account_id: described(Uuid, 'The account'),
    business_name: Type.String({ description: 'Its business name' }),
    credits_consumed: Type.Integer({ description: 'Send debits less refunds in the range' }),
    delivery_rate: Type.Number({ description: 'delivered / (delivered + failed), 0 when no message reached a final outcome' }),
    messages: MessageCounters,
    inbound: Type.Integer({ description: 'Inbound messages received' }),
    optouts: Type.Integer({ description: 'Opt-outs recorded' }),
  }), { description: 'The caller first, then each sub-account (closed ones included: their history stays)' }),
  grand_total: Type.Object({
    credits_consumed: Type.Integer({ description: 'Credits consumed by the whole group' }),
    inbound: Type.Integer({ description: 'Inbound messages of the whole group' }),
    optouts: Type.Integer({ description: 'Opt-outs of the whole group' }),
    messages: MessageCounters,
  }, { description: 'The sums over every account' }),
}, { description: 'The group report' });

export const DailyReport = Type.Object({
  from: From,
  to: To,
  days: Type.Array(Type.Object({
    day: described(Day, 'The day'), total: Type.Integer({ description: 'Outbound messages created that day' }),
    sent: Type.Integer({ description: 'Of them, accepted by the SMSC' }), delivered: Type.Integer({ description: 'Of them, delivered' }),
    failed: Type.Integer({ description: 'Of them, failed' }),
    inbound: Type.Integer({ description: 'Inbound messages received that day' }),
  }), { description: 'One entry per day of the range, oldest first, zeros included' }),
}, { description: 'Outbound messages per day' });

const COUNTERS = { total: 1240, parts: 1302, sent: 1236, delivered: 1211, failed: 21 };
export const REPORT_EXAMPLES = {
  usage: {
    account_id: EX.account, from: '2026-10-29', to: '2026-11-27',
    summary: { messages: COUNTERS, credits_consumed: 1302, inbound: 87, optouts: 4 },
    filters: { direction: 'all', status: null, country: null, campaign_id: null, keyword: null, number: null },
  },
  daily: {
    from: '2026-11-26', to: '2026-11-27',
    days: [{ day: '2026-11-26', total: 40, sent: 40, delivered: 39, failed: 1, inbound: 3 }, { day: '2026-11-27', total: 52, sent: 51, delivered: 48, failed: 2, inbound: 5 }],
  },
  group: {
    from: '2026-10-29', to: '2026-11-27',
    accounts: [
      { account_id: EX.account, business_name: 'Harbour Dental Group', credits_consumed: 1302, delivery_rate: 0.983, messages: COUNTERS, inbound: 87, optouts: 4 },
      {
        account_id: EX.subAccount, business_name: 'Harbour Dental Manly', credits_consumed: 310, delivery_rate: 0.99,
        messages: { total: 300, parts: 310, sent: 300, delivered: 297, failed: 3 }, inbound: 12, optouts: 1,
      },
    ],
    grand_total: { credits_consumed: 1612, inbound: 99, optouts: 5, messages: { total: 1540, parts: 1612, sent: 1536, delivered: 1508, failed: 24 } },
  },
};
