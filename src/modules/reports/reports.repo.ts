import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db, type Executor } from '../../platform/db/client.ts';

export type Direction = 'all' | 'outbound' | 'inbound';
export type StatusFilter = 'queued' | 'sent' | 'delivered' | 'failed';

export interface ReportFilters {
  direction: Direction;
  status?: StatusFilter;
  country?: 'AU' | 'NZ';
  campaignId?: string;
  keyword?: string;
  /** E.164, already normalised */
  number?: string;
}

export interface MessageCounters { total: number; parts: number; sent: number; delivered: number; failed: number }

export interface Usage {
  accountId: string;
  businessName: string;
  messages: MessageCounters;
  creditsConsumed: number;
  inbound: number;
  optouts: number;
}

interface UsageRow {
  account_id: string;
  business_name: string;
  total: unknown; parts: unknown; sent: unknown; delivered: unknown; failed: unknown;
  credits_consumed: unknown; inbound: unknown; optouts: unknown;
}

const COUNTRY_PREFIX = { AU: '+61', NZ: '+64' } as const;

// `sent` is the report counter's meaning (accepted by the SMSC, whatever came after), not the current status.
const STATUS_CONDITION: Record<StatusFilter, SQL> = {
  queued: sql`m.status = 'queued'`,
  sent: sql`m.sent_at is not null`,
  delivered: sql`m.status = 'delivered'`,
  failed: sql`m.status = 'failed'`,
};

const and = (conditions: SQL[]): SQL => (conditions.length ? sql` and ${sql.join(conditions, sql` and `)}` : sql``);

/** True when any filter narrows the outbound messages (direction alone does not). */
export function hasMessageFilters(f: ReportFilters): boolean {
  return f.status !== undefined || f.country !== undefined || f.campaignId !== undefined
    || f.keyword !== undefined || f.number !== undefined;
}

function outboundConditions(f: ReportFilters): SQL[] {
  const c: SQL[] = [];
  if (f.direction === 'inbound') c.push(sql`false`);
  if (f.status) c.push(STATUS_CONDITION[f.status]);
  if (f.country) c.push(sql`m.country = ${f.country}`);
  if (f.campaignId) c.push(sql`m.campaign_id = ${f.campaignId}::uuid`);
  // strpos, not LIKE: the keyword is matched literally, % and _ included. Deleted content (null) never matches.
  if (f.keyword !== undefined) c.push(sql`strpos(lower(m.body), lower(${f.keyword})) > 0`);
  if (f.number) c.push(sql`m.recipient = ${f.number}`);
  return c;
}

/** Inbound messages have no status: a status filter selects outbound only. A campaign matches replies to it. */
function inboundConditions(f: ReportFilters): SQL[] {
  const c: SQL[] = [];
  if (f.direction === 'outbound' || f.status) c.push(sql`false`);
  if (f.country) c.push(sql`left(i.from_number, 3) = ${COUNTRY_PREFIX[f.country]}`);
  if (f.campaignId) {
    c.push(sql`exists (select 1 from messages r where r.id = i.in_reply_to and r.account_id = i.account_id
                       and r.campaign_id = ${f.campaignId}::uuid)`);
  }
  if (f.keyword !== undefined) c.push(sql`strpos(lower(i.body), lower(${f.keyword})) > 0`);
  if (f.number) c.push(sql`i.from_number = ${f.number}`);
  return c;
}

/** An opt-out is a number and a date: filters on anything else (status, campaign, text) match none. */
function optoutConditions(f: ReportFilters): SQL[] {
  const c: SQL[] = [];
  if (f.status || f.campaignId || f.keyword !== undefined) c.push(sql`false`);
  if (f.country) c.push(sql`left(o.number, 3) = ${COUNTRY_PREFIX[f.country]}`);
  if (f.number) c.push(sql`o.number = ${f.number}`);
  return c;
}

/**
 * credits_consumed. Unfiltered: the ledger's send debits less refunds written in the range (transfers, grants and
 * top-ups are other kinds and never count). With message filters the ledger cannot be split by message (a batch
 * is one debit row), so: the credits of the matching messages less the refunds recorded against those messages.
 */
function creditsLateral(f: ReportFilters, range: { start: SQL; end: SQL }): { lateral: SQL; consumed: SQL } {
  if (f.direction === 'inbound') return { lateral: sql`select 0 as v`, consumed: sql`0` };
  if (!hasMessageFilters(f)) {
    return {
      lateral: sql`
        select coalesce(-sum(l.delta), 0) as v from credit_ledger l
        where l.account_id = a.id and l.created_at >= ${range.start} and l.created_at < ${range.end}
          and l.kind in ('send', 'refund')`,
      consumed: sql`c.v`,
    };
  }
  return {
    lateral: sql`
      select coalesce(sum(l.delta), 0) as v
      from credit_ledger l join messages m on m.id = l.message_id and m.account_id = l.account_id
      where l.account_id = a.id and l.kind = 'refund'
        -- a refund is never older than its message, which bounds the ledger scan
        and l.created_at >= ${range.start}
        and m.created_at >= ${range.start} and m.created_at < ${range.end}${and(outboundConditions(f))}`,
    consumed: sql`m.credits - c.v`,
  };
}

/**
 * One statement for all three report endpoints, so the counters mean the same everywhere: per account, the
 * outbound counters of messages created in [start, end), credits consumed, inbound messages received and opt-outs
 * recorded in the range. `group` adds every sub-account of `accountId` (closed ones too: their history is part of
 * the group's usage). The first row is `accountId` itself.
 *
 * Each counter is an aggregate LATERAL to the account row (one row per account whatever the data), so the
 * planner's estimates stay at the number of accounts. JIT is off for the statement: compiling these plans takes
 * hundreds of milliseconds, far longer than running them (measured in bench/reports.ts).
 */
export async function usageByAccount(
  db: Db, accountId: string, scope: 'self' | 'group', window: { start: Date; end: Date }, f: ReportFilters,
): Promise<Usage[]> {
  const range = {
    start: sql`${window.start.toISOString()}::timestamptz`,
    end: sql`${window.end.toISOString()}::timestamptz`,
  };
  const accounts = scope === 'group'
    ? sql`(a.id = ${accountId} or a.parent_id = ${accountId})`
    : sql`a.id = ${accountId}`;
  const credits = creditsLateral(f, range);
  const query = sql`
    select a.id as account_id, a.business_name, m.total, m.parts, m.sent, m.delivered, m.failed,
           ${credits.consumed} as credits_consumed, i.n as inbound, o.n as optouts
    from accounts a
    cross join lateral (
      select count(*) as total, coalesce(sum(m.parts), 0) as parts,
             count(*) filter (where m.sent_at is not null) as sent,
             count(*) filter (where m.status = 'delivered') as delivered,
             count(*) filter (where m.status = 'failed') as failed,
             coalesce(sum(m.credits), 0) as credits
      from messages m
      where m.account_id = a.id and m.created_at >= ${range.start} and m.created_at < ${range.end}${and(outboundConditions(f))}
    ) m
    cross join lateral (${credits.lateral}) c
    cross join lateral (
      select count(*) as n from inbound_messages i
      where i.account_id = a.id and i.received_at >= ${range.start} and i.received_at < ${range.end}${and(inboundConditions(f))}
    ) i
    cross join lateral (
      select count(*) as n from optouts o
      where o.account_id = a.id and o.created_at >= ${range.start} and o.created_at < ${range.end}${and(optoutConditions(f))}
    ) o
    where ${accounts}
    order by a.id <> ${accountId}::uuid, a.created_at, a.id`;
  const found = await db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    return rows<UsageRow>(tx, query);
  });
  return found.map((r) => ({
    accountId: r.account_id,
    businessName: r.business_name,
    messages: {
      total: Number(r.total), parts: Number(r.parts), sent: Number(r.sent),
      delivered: Number(r.delivered), failed: Number(r.failed),
    },
    creditsConsumed: Number(r.credits_consumed),
    inbound: Number(r.inbound),
    optouts: Number(r.optouts),
  }));
}

export interface DayCounters { day: string; total: number; sent: number; delivered: number; failed: number; inbound: number }

const sydneyDayOf = (column: SQL) => sql`to_char(${column} at time zone 'Australia/Sydney', 'YYYY-MM-DD')`;

/**
 * Per Sydney day of the range (days with nothing are absent): outbound messages created and their outcomes, and
 * inbound messages received, narrowed by the report's filters exactly as `usageByAccount` narrows its counters.
 */
export async function dailyCounts(db: Executor, accountId: string, range: { start: Date; end: Date }, f: ReportFilters): Promise<DayCounters[]> {
  const start = range.start.toISOString();
  const end = range.end.toISOString();
  const [outbound, inbound] = await Promise.all([
    rows<Omit<DayCounters, 'inbound'>>(db, sql`
      select ${sydneyDayOf(sql`m.created_at`)} as day,
             count(*)::int as total,
             count(*) filter (where m.sent_at is not null)::int as sent,
             count(*) filter (where m.status = 'delivered')::int as delivered,
             count(*) filter (where m.status = 'failed')::int as failed
      from messages m where m.account_id = ${accountId} and m.created_at >= ${start} and m.created_at < ${end}${and(outboundConditions(f))}
      group by 1`),
    rows<{ day: string; inbound: number }>(db, sql`
      select ${sydneyDayOf(sql`i.received_at`)} as day, count(*)::int as inbound
      from inbound_messages i where i.account_id = ${accountId} and i.received_at >= ${start} and i.received_at < ${end}${and(inboundConditions(f))}
      group by 1`),
  ]);
  const days = new Map<string, DayCounters>();
  const zero = (day: string): DayCounters => ({ day, total: 0, sent: 0, delivered: 0, failed: 0, inbound: 0 });
  for (const o of outbound) days.set(o.day, { ...zero(o.day), ...o });
  for (const i of inbound) days.set(i.day, { ...(days.get(i.day) ?? zero(i.day)), inbound: i.inbound });
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}
